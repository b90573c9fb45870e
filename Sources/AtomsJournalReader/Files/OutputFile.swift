#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole output file (`-o PATH`, a state file, a JUnit report) where its path points.
///
/// - A new file, or an existing regular file, is replaced atomically: the bytes go to a
///   temporary file beside the target, which is flushed and renamed over it, so a reader (or a
///   crash) never sees half a file. An existing file must be writable by the user, keeps its
///   permissions, and a symbolic link to it stays a link: the file it points to is replaced.
/// - Anything else that exists (a FIFO, `/dev/stdout`, a process substitution, a device) is
///   written through, never replaced.
/// - A directory, an unwritable file, or a path that cannot be resolved is refused.
package enum OutputFile {
    /// Writes `bytes` to `path`.
    ///
    /// - Parameter permissions: The mode of a file this creates (an existing file keeps its own).
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when the path cannot be written,
    ///   ``JournalError/writeFailed(path:reason:)`` when writing the bytes failed.
    package static func write(_ bytes: some Collection<UInt8>, to path: String, permissions: mode_t? = nil) throws(JournalError) {
        let bytes = Array(bytes)
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                guard access(path, W_OK) == 0 else {
                    throw .cannotCreate(path: path, reason: describe(errno))
                }
                let target = resolved(path)
                if !replaceAtomically(target, with: bytes, permissions: status.st_mode & 0o7777) {
                    // No temporary file beside it (an unwritable directory): write in place.
                    try writeThrough(path, bytes, flags: O_WRONLY | O_TRUNC)
                }
            case S_IFDIR:
                throw .cannotCreate(path: path, reason: "it is a directory")
            default:
                try writeThrough(path, bytes, flags: O_WRONLY)
            }
            return
        }
        let statError = errno
        var link = stat()
        if statError == ENOENT, lstat(path, &link) == 0 {
            // A symbolic link to a file that does not exist yet: create the file it names.
            try writeThrough(path, bytes, flags: O_WRONLY | O_CREAT | O_TRUNC, permissions: permissions ?? 0o666)
            return
        }
        guard statError == ENOENT else {
            throw .cannotCreate(path: path, reason: describe(statError))
        }
        let mode = permissions ?? (0o666 & ~currentUmask())
        guard replaceAtomically(path, with: bytes, permissions: mode) else {
            throw .cannotCreate(path: path, reason: describe(errno))
        }
    }

    /// A `mkstemp` template for a hidden temporary file in `path`'s directory.
    package static func temporaryPath(beside path: String) -> String {
        let directory = FileText.folder(of: path)
        let name = FileText.name(of: path)
        return (directory.isEmpty ? "." : directory) + "/.\(name).XXXXXX"
    }

    /// Writes to a temporary file in `path`'s directory and renames it to `path`; returns
    /// `false` (with `errno` set) when the temporary file cannot be made or renamed.
    private static func replaceAtomically(_ path: String, with bytes: [UInt8], permissions: mode_t) -> Bool {
        var template = Array(temporaryPath(beside: path).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            return false
        }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = FileText.writeAll(bytes, to: descriptor) == nil && fchmod(descriptor, permissions) == 0 && fsync(descriptor) == 0
        let failure = errno
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            let renameFailure = errno
            unlink(temporary)
            errno = written ? renameFailure : failure
            return false
        }
        return true
    }

    /// Opens the path itself (following links) and writes the bytes.
    private static func writeThrough(_ path: String, _ bytes: [UInt8], flags: Int32, permissions: mode_t = 0o666) throws(JournalError) {
        let descriptor = open(path, flags | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: path, reason: describe(errno))
        }
        defer { close(descriptor) }
        guard FileText.writeAll(bytes, to: descriptor) == nil else {
            throw .writeFailed(path: path, reason: describe(errno))
        }
    }

    /// The path with symbolic links resolved (the path itself when it cannot be resolved).
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else {
            return path
        }
        defer { free(real) }
        return String(cString: real)
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
