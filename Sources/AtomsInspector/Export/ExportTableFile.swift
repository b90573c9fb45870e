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

/// One table's file in an export folder: rows appended through a buffer written in blocks of
/// about 256 KB, and cut back to a mark when a journal fails half-way, so that a failed
/// journal leaves no rows.
final class ExportTableFile {
    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes written to the file so far.
    private var flushed = 0
    /// Rows written, since the file was created.
    private(set) var rows = 0

    /// Creates (or empties) the file, starting it with `header` (CSV's header row; empty for JSON Lines).
    init(path: String, header: [UInt8]) throws(InspectorError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw InspectorError(.cannotCreate, path: path, "cannot create the table file: \(Self.reason(errno)) — check the output folder's permissions")
        }
        buffer.reserveCapacity(Self.blockSize + (64 << 10))
        buffer.append(contentsOf: header)
    }

    deinit {
        close(descriptor)
    }

    private static let blockSize = 256 << 10

    /// Appends one row, which `encode` appends to the buffer.
    func appendRow(_ encode: (inout [UInt8]) -> Void) throws(InspectorError) {
        encode(&buffer)
        rows += 1
        if buffer.count >= Self.blockSize {
            try flush()
        }
    }

    /// Where the file ends now, with its row count: a place to cut back to.
    var mark: (bytes: Int, rows: Int) {
        (flushed + buffer.count, rows)
    }

    /// Drops every row written after `mark`.
    func cut(to mark: (bytes: Int, rows: Int)) throws(InspectorError) {
        if mark.bytes >= flushed {
            buffer.removeSubrange((mark.bytes - flushed)...)
        } else {
            buffer.removeAll(keepingCapacity: true)
            guard ftruncate(descriptor, off_t(mark.bytes)) == 0, lseek(descriptor, off_t(mark.bytes), SEEK_SET) >= 0 else {
                throw InspectorError(.ioError, path: path, "cannot remove a failed journal's rows: \(Self.reason(errno)) — delete the export folder and run again")
            }
            flushed = mark.bytes
        }
        rows = mark.rows
    }

    /// Writes the buffered rows to the file.
    func flush() throws(InspectorError) {
        let ok = buffer.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
        guard ok else {
            throw InspectorError(.ioError, path: path, "cannot write the table file: \(Self.reason(errno)) — check free disk space")
        }
        flushed += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
