/// Where a recorder's lines go. A sink receives complete lines (no trailing newline) in order.
///
/// Ships with ``FileJournalSink`` and, for tests, ``InMemoryJournalSink``.
public protocol JournalSink: AnyObject, Sendable {
    /// Appends one line. Must not block on I/O.
    func write(line: String)
    /// Appends one or more complete lines given as UTF-8 bytes, each ending in a newline
    /// (`0x0A`). The recorder's thread hands over a whole batch of transactions this way.
    /// Must not block on I/O. The default splits the bytes and calls ``write(line:)``.
    func write(lines: [UInt8])
    /// Returns once every line written so far has reached the file (or the sink's storage).
    func flush() throws
    /// Flushes, makes the lines durable, and closes; later writes are ignored.
    func close() throws
    /// Whether the recorder should build each transaction's lines on the main actor as it
    /// commits, so that the sink holds them at once (the in-memory sink, for tests). Otherwise
    /// (the default) the recorder's own thread builds them.
    var receivesLinesAtCommit: Bool { get }
    /// For a bounded journal: the size in bytes at which the recorder starts a new segment,
    /// and the limit the journal is kept within. `nil` (the default): one unbounded journal.
    var segmentSize: Int? { get }
    /// The journal's size limit in bytes, for its header (`nil`: unbounded).
    var sizeLimit: Int? { get }
    /// Starts a segment whose first lines (a header and a keyframe, each ending in a newline)
    /// are `opening`: the journal's first lines, and for a bounded journal each later
    /// segment's. The default appends them with ``write(lines:)``.
    func beginSegment(opening: [UInt8])
}

extension JournalSink {
    /// Lines are built on the recorder's thread.
    public var receivesLinesAtCommit: Bool { false }

    /// Unbounded.
    public var segmentSize: Int? { nil }

    /// Unbounded.
    public var sizeLimit: Int? { nil }

    /// Appends the lines.
    public func beginSegment(opening: [UInt8]) {
        write(lines: opening)
    }

    /// Splits the bytes into lines and writes each with ``write(line:)``.
    public func write(lines: [UInt8]) {
        for line in lines.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            write(line: String(decoding: line, as: UTF8.self))
        }
    }
}

/// When a file sink hands buffered lines to the operating system.
public enum FlushPolicy: Sendable, Equatable {
    /// After every transaction: a crash (even SIGKILL) loses no committed transaction that the
    /// writer thread had time to write, typically none.
    case everyTransaction
    /// Every this many milliseconds: a crash loses at most that window.
    case interval(milliseconds: Int)
    /// Only when the recorder closes (or `flush()` is called).
    case onClose
}
