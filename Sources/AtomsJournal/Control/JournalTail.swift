import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The complete lines appended to a journal file since the tail was made, read with `pread`
/// on the control thread for the clients that follow.
final class JournalTail {
    private let descriptor: Int32
    /// Where the next line starts.
    private(set) var offset: Int
    /// The start of a line not yet complete.
    private var partial: [UInt8] = []
    /// Whether the tail began inside a line, whose end is skipped.
    private var skippingToNewline: Bool

    /// Opens `path` and starts at its end; `nil` when it cannot be opened.
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let size = Int(lseek(descriptor, 0, SEEK_END))
        var last: UInt8 = 0x0A
        if size > 0 {
            _ = pread(descriptor, &last, 1, off_t(size - 1))
        }
        offset = max(0, size)
        skippingToNewline = last != 0x0A
    }

    deinit {
        close(descriptor)
    }

    /// The lines completed since the last call, without their newlines: at most about
    /// `limit` bytes of them (the rest are returned by the next calls).
    func newLines(limit: Int = 256 << 10) -> [[UInt8]] {
        var buffer = [UInt8](repeating: 0, count: min(limit, 64 << 10))
        var lines: [[UInt8]] = []
        var read = 0
        while read < limit {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard count > 0 else { break }
            offset += count
            read += count
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                if skippingToNewline {
                    skippingToNewline = false
                } else {
                    lines.append(partial + buffer[start..<index])
                }
                partial.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if !skippingToNewline {
                partial.append(contentsOf: buffer[start..<count])
            }
        }
        return lines
    }
}
