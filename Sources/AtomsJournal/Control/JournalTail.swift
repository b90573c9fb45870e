import AtomsJournalReader
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The complete lines appended to a journal file since the tail was made, read with `pread`
/// on the control thread for the clients that follow, through the reader's loop for a file
/// still being written (``AppendedLines``).
final class JournalTail {
    private let descriptor: Int32
    private let path: String
    /// Where the next line starts.
    private(set) var offset: Int
    /// Whether the tail began inside a line, whose end is skipped.
    private var skippingToNewline: Bool

    /// Opens `path` and starts at its end; `nil` when it cannot be opened.
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.path = path
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
    /// `limit` bytes of them (the rest are returned by the next calls). A file that cannot be
    /// read, or was cut short, gives what was read before.
    func newLines(limit: Int = 256 << 10) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var taken = 0
        var reached = offset
        _ = try? AppendedLines.read(descriptor, path: path, from: offset) { raw, range, lineOffset in
            if skippingToNewline {
                skippingToNewline = false
            } else {
                lines.append(Array(UnsafeRawBufferPointer(rebasing: raw[range])))
            }
            taken += range.count + 1
            reached = lineOffset + range.count + 1
            return taken < limit
        }
        offset = reached
        return lines
    }
}
