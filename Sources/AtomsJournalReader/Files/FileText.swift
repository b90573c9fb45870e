#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// The few file operations the journal's files, the recorder and the inspector share, on
/// descriptors and path text, without Foundation's `FileHandle` or `NSString`.
package enum FileText {
    /// Writes every byte to `descriptor`, retrying short and interrupted writes.
    ///
    /// - Returns: `nil` on success, or the `errno` of the failed write.
    package static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Up to `count` bytes from the start of the file at `path`; `nil` when it cannot be read.
    package static func prefix(_ count: Int, ofFileAt path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(filled)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// The last component of a path, as `NSString.lastPathComponent` gives it: `b` for `/a/b`
    /// and `/a/b/`, `/` for `/`.
    package static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else {
            return String(trimmed)
        }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The folder of a path, as `NSString.deletingLastPathComponent` gives it: `/a` for
    /// `/a/b`, `/` for `/b`, the empty string for `b`.
    package static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else {
            return trimmed == "/" ? "/" : ""
        }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : String(folder)
    }

    private static func withoutTrailingSlashes(_ path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") {
            trimmed = trimmed.dropLast()
        }
        return trimmed
    }
}
