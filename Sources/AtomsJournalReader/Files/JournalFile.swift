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

/// `read(2)`, outside the type (whose own `read` would shadow it).
private func readStream(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// A journal file opened for reading: read with `pread(2)` into buffers its readers own
/// (``LineReader``), never mapped into memory.
///
/// A mapped file that shrinks under its reader kills the reader with SIGBUS the next time it
/// touches a page past the new end, and journals are re-recorded at the same path all the
/// time. Read with `pread`, a file truncated or rewritten while it is open is noticed instead
/// (a read comes back short, or the first bytes are no longer the ones read at opening) and
/// reported as ``JournalError/changedWhileReading(path:)``.
///
/// The file is read no further than the size it had when it was opened: a journal still being
/// recorded is read as it was then, and opened again to see more. Anything that is not a
/// regular file (a FIFO, a pipe from a process substitution, `/dev/stdin`) is read to its end
/// into memory at opening, since a journal is read in any order.
final class JournalFile: Sendable {
    /// The path, as given.
    let path: String
    /// The size in bytes when the file was opened: readers stop there.
    let count: Int
    private let descriptor: Int32
    /// A stream's bytes, read at opening (`nil` for a regular file).
    private let contents: [UInt8]?
    /// The first bytes, as read at opening: a rewritten journal starts differently (its
    /// header holds the time its recording started).
    private let opening: [UInt8]

    /// Opens the file at `path`.
    ///
    /// - Throws: ``JournalError/cannotRead(path:reason:)`` when it cannot be opened or read
    ///   (a directory included).
    init(path: String) throws(JournalError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotRead(path: path, reason: Self.reason(errno))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .cannotRead(path: path, reason: Self.reason(code))
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            close(descriptor)
            throw .cannotRead(path: path, reason: Self.reason(EISDIR))
        case S_IFREG:
            self.descriptor = descriptor
            contents = nil
            count = Int(status.st_size)
        default:
            defer { close(descriptor) }
            let bytes = try Self.readToEnd(descriptor, path: path)
            self.descriptor = -1
            contents = bytes
            count = bytes.count
        }
        var opening = [UInt8](repeating: 0, count: min(count, 256))
        if let contents {
            opening = Array(contents.prefix(256))
        } else if !opening.isEmpty {
            let received = opening.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            opening.removeLast(opening.count - max(0, received))
        }
        self.opening = opening
    }

    /// The regular file open at `descriptor` (a journal being followed as it grows), read no
    /// further than its size now: a reader of it sees the lines written so far. The
    /// descriptor is duplicated, so the caller keeps its own.
    ///
    /// - Throws: ``JournalError/cannotRead(path:reason:)`` when it cannot be duplicated or
    ///   its size cannot be read.
    init(following descriptor: Int32, path: String) throws(JournalError) {
        self.path = path
        let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { throw .cannotRead(path: path, reason: Self.reason(errno)) }
        var status = stat()
        guard fstat(own, &status) == 0 else {
            let code = errno
            close(own)
            throw .cannotRead(path: path, reason: Self.reason(code))
        }
        self.descriptor = own
        contents = nil
        count = Int(status.st_size)
        // Its follower notices a replaced file itself (by size and identity).
        opening = []
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads `length` bytes at `offset` (within ``count``) into `buffer`.
    ///
    /// - Throws: ``JournalError/changedWhileReading(path:)`` when fewer bytes come back (the
    ///   file was truncated), ``JournalError/cannotRead(path:reason:)`` when reading fails.
    func read(into buffer: UnsafeMutableRawPointer, at offset: Int, length: Int) throws(JournalError) {
        precondition(offset >= 0 && length >= 0 && offset + length <= count)
        if let contents {
            contents.withUnsafeBytes { raw in
                buffer.copyMemory(from: raw.baseAddress! + offset, byteCount: length)
            }
            return
        }
        var done = 0
        while done < length {
            let received = pread(descriptor, buffer + done, length - done, off_t(offset + done))
            if received < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: Self.reason(errno))
            }
            guard received > 0 else {
                throw .changedWhileReading(path: path)
            }
            done += received
        }
    }

    /// Whether the file is no longer the one opened: shorter than it was, or starting with
    /// other bytes (a new recording at the same path, written over this one).
    var hasChanged: Bool {
        guard contents == nil else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return true }
        if Int(status.st_size) < count { return true }
        var now = [UInt8](repeating: 0, count: opening.count)
        let received = now.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return received != opening.count || now != opening
    }

    /// The line number (from 1) of the line starting at `offset`: counts the newlines before
    /// it, so it is only used for messages.
    func lineNumber(at offset: Int) -> Int {
        var number = 1
        var position = 0
        let end = min(offset, count)
        // A megabyte at a time, or as much as comes before the line: a message about line 7
        // of a small file (the fuzz targets make thousands a second) maps no megabyte.
        let chunk = max(1, min(1 << 20, end))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while position < end {
            let length = min(chunk, end - position)
            guard (try? read(into: buffer.baseAddress!, at: position, length: length)) != nil else { break }
            var scan = buffer.baseAddress!
            var left = length
            while left > 0, let found = memchr(scan, 0x0A, left) {
                number += 1
                left -= found - scan + 1
                scan = found + 1
            }
            position += length
        }
        return number
    }

    /// The most a stream (a pipe, a FIFO) is read into memory.
    static let maximumStreamSize = 4 << 30

    /// Reads a stream to its end.
    private static func readToEnd(_ descriptor: Int32, path: String) throws(JournalError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let received = chunk.withUnsafeMutableBytes { readStream(descriptor, $0.baseAddress, $0.count) }
            if received < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: reason(errno))
            }
            if received == 0 { return bytes }
            bytes += chunk[0..<received]
            // Something else (`/dev/zero`, `yes`) is not read on: once its first line shows it
            // is no journal header, what was read is enough to say so.
            let firstLineEnd = bytes.prefix(LineScanner.maximumHeaderLength + 1).firstIndex(of: 0x0A)
            if bytes.first != UInt8(ascii: "{") || (firstLineEnd == nil && bytes.count > LineScanner.maximumHeaderLength) {
                return bytes
            }
            if bytes.count > maximumStreamSize {
                throw .cannotRead(path: path, reason: "the stream goes on past \(maximumStreamSize >> 30) GB — record the journal to a file and pass its path")
            }
        }
    }

    /// A short reason for an `errno`.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        case ELOOP: "too many levels of symbolic links (a link loop)"
        case ENOTDIR: "a part of the path is not a directory"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
