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

/// Reads the lines of a ``JournalFile`` through a buffer of its own.
///
/// Reading on from the last line costs no system call until the buffer is used up, then one
/// read of a megabyte; a jump elsewhere (a binary search's probe) reads a few kilobytes
/// around the line. A line longer than the buffer grows it. Offsets are the file's; a line's
/// bytes are handed out as a range of the buffer, valid until the next call.
struct LineReader {
    let file: JournalFile
    private var buffer: [UInt8] = []
    /// The file offset of `buffer[0]`, and the number of bytes of the buffer that hold file
    /// bytes.
    private var start = 0
    private var filled = 0

    /// Bytes read when reading on in order, and when jumping elsewhere.
    private static let sequentialChunk = 256 << 10
    private static let randomChunk = 16 << 10

    init(file: JournalFile) {
        self.file = file
    }

    /// The file's size, as opened.
    var count: Int { file.count }

    /// One line: where it is in the file, and where in the buffer.
    struct Line {
        /// The file offset of its first byte.
        var offset: Int
        /// The file offset of its newline (``LineReader/count`` for a last line without one).
        var end: Int
        /// Its bytes (without the newline) in the buffer ``LineReader/withBuffer(_:)`` shows.
        var range: Range<Int>
        /// Whether it ends with a newline.
        var isTerminated: Bool

        /// The offset of the next line.
        var next: Int { end + 1 }
    }

    /// Reads the line starting at `offset` (a line start, before ``count``).
    ///
    /// - Throws: ``JournalError/changedWhileReading(path:)`` when the file was truncated.
    mutating func line(at offset: Int) throws(JournalError) -> Line {
        precondition(offset >= 0 && offset < count)
        var length = offset >= start && offset <= start + filled ? Self.sequentialChunk : Self.randomChunk
        while true {
            if offset >= start, offset < start + filled {
                let found: Int? = buffer.withUnsafeBytes { raw in
                    let from = offset - start
                    return memchr(raw.baseAddress! + from, 0x0A, filled - from).map { UnsafeRawPointer($0) - raw.baseAddress! }
                }
                if let found {
                    return Line(offset: offset, end: start + found, range: (offset - start)..<found, isTerminated: true)
                }
                if start + filled == count {
                    return Line(offset: offset, end: count, range: (offset - start)..<filled, isTerminated: false)
                }
                // The line goes on past the buffer: read again from its start, more of it.
                length = max(length, 2 * (start + filled - offset))
            }
            try fill(at: offset, length: length)
        }
    }

    /// What a caller of ``readOn(from:to:_:)`` does with a line.
    enum Reading {
        /// Takes the line and goes on to the next.
        case next
        /// Takes the line and stops after it.
        case stopAfter
        /// Leaves the line unread and stops before it.
        case stopBefore
    }

    /// Runs `body` on the line at `offset`, then on each line after it that the buffer holds
    /// whole and that starts before `end`, in one loop over the buffer, until `body` stops.
    ///
    /// - Returns: The offset of the first line not taken.
    @inline(__always)
    mutating func readOn(
        from offset: Int, to end: Int, _ body: (UnsafeRawBufferPointer, Line) throws(JournalError) -> Reading
    ) throws(JournalError) -> Int {
        let first = try line(at: offset)
        let (start, filled) = (self.start, self.filled)
        // The buffer's bytes without `withBuffer`'s generic wrapping: this loop is every
        // in-order reader's, and the callers' closures stay plain non-escaping ones.
        var failure: JournalError?
        let taken = buffer.withUnsafeBytes { whole -> Int in
            let raw = UnsafeRawBufferPointer(rebasing: whole[0..<filled])
            var line = first
            while true {
                do throws(JournalError) {
                    switch try body(raw, line) {
                    case .stopBefore: return line.offset
                    case .stopAfter: return line.next
                    case .next: break
                    }
                } catch {
                    failure = error
                    return line.offset
                }
                let next = line.next
                let from = next - start
                guard next < end, from < filled, let found = memchr(raw.baseAddress! + from, 0x0A, filled - from) else {
                    return next
                }
                let lineEnd = UnsafeRawPointer(found) - raw.baseAddress!
                line = Line(offset: next, end: start + lineEnd, range: from..<lineEnd, isTerminated: true)
            }
        }
        if let failure { throw failure }
        return taken
    }

    /// Runs `body` with the buffer the ranges of ``Line`` refer to.
    func withBuffer<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = buffer.withUnsafeBytes { raw in
            do throws(Failure) {
                return .success(try body(UnsafeRawBufferPointer(rebasing: raw[0..<filled])))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The offset of the newline ending the line at `offset` (``count`` when it has none).
    mutating func lineEnd(_ offset: Int) throws(JournalError) -> Int {
        try line(at: offset).end
    }

    /// The start of the line that ends just before `offset` (a line start), or `nil` at the
    /// start of the file.
    mutating func previousLineStart(before offset: Int) throws(JournalError) -> Int? {
        guard offset > 0 else { return nil }
        // `offset - 1` is the previous line's newline; its start follows the newline before.
        let last = offset - 1
        var length = Self.randomChunk
        while true {
            if last >= start, last <= start + filled, last - start >= 0 {
                let found: Int? = buffer.withUnsafeBytes { raw in
                    let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    var position = last - start
                    while position > 0 {
                        if base[position - 1] == 0x0A { return start + position }
                        position -= 1
                    }
                    return nil
                }
                if let found { return found }
                if start == 0 { return 0 }
                length = max(length, 2 * (offset - start))
            }
            let from = max(0, offset - length)
            try fill(at: from, length: offset - from)
        }
    }

    /// Makes the buffer hold `length` bytes of the file from `offset` (fewer at its end).
    private mutating func fill(at offset: Int, length: Int) throws(JournalError) {
        let length = min(length, count - offset)
        if buffer.count < length {
            // No larger than the file: a small file's readers hold a few kilobytes each.
            buffer = [UInt8](repeating: 0, count: max(length, min(Self.randomChunk, count)))
        }
        start = offset
        filled = 0
        let file = self.file
        let outcome: Swift.Result<Void, JournalError> = buffer.withUnsafeMutableBytes { raw in
            do throws(JournalError) {
                return .success(try file.read(into: raw.baseAddress!, at: offset, length: length))
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
        filled = length
    }
}
