/// Where a recorder's journal is stored: a plain synchronous interface that one thread calls,
/// the recorder's own (the only thread that encodes and writes), one call at a time.
///
/// Ships with ``FileJournalSink`` (one file, or a bounded journal's folder of segments), the
/// flight recorder's memory (``JournalRecorder/init(flightRecorder:keyframeInterval:redacting:program:)``)
/// and ``InMemoryJournalSink``. When lines are handed over is the recorder's business (its
/// ``flushPolicy``): a sink stores what it is given, when it is given it.
///
/// ## Example
/// ```swift
/// final class CountingSink: JournalSink, @unchecked Sendable {
///     var bytes = 0   // touched only by the recorder's thread
///     func append(_ lines: [UInt8]) throws { bytes += lines.count }
///     func sync() throws {}
///     func close() throws {}
/// }
/// ```
public protocol JournalSink: AnyObject, Sendable {
    /// Stores one or more complete lines given as UTF-8 bytes, each ending in a newline
    /// (`0x0A`). May block on I/O: it runs on the recorder's thread, never on the app's.
    ///
    /// - Throws: A ``JournalError`` when the bytes cannot be stored; the recorder reports the
    ///   first failure from its next `flush()` or `close()`.
    func append(_ lines: [UInt8]) throws
    /// Starts a segment whose first lines (a header and a keyframe, each ending in a newline)
    /// are `opening`: the journal's first lines, and for a bounded journal (``sizeLimit``)
    /// each later segment's, once the recorder decided the current one is full. The default
    /// appends them.
    func startSegment(opening: [UInt8]) throws
    /// Makes everything stored so far durable (a file's `fsync`). The recorder calls it when
    /// it closes.
    func sync() throws
    /// Closes the storage; nothing is appended after this.
    func close() throws
    /// For a bounded journal: the size limit in bytes the journal is kept within, which the
    /// recorder starts segments by and the header names. `nil` (the default): one unbounded
    /// journal.
    var sizeLimit: Int? { get }
    /// When the recorder's thread hands the lines it built to ``append(_:)``. The default:
    /// after each batch of transactions (``FlushPolicy/everyTransaction``).
    var flushPolicy: FlushPolicy { get }
}

extension JournalSink {
    /// Appends the lines.
    public func startSegment(opening: [UInt8]) throws {
        try append(opening)
    }

    /// Unbounded.
    public var sizeLimit: Int? { nil }

    /// After each batch of transactions.
    public var flushPolicy: FlushPolicy { .everyTransaction }
}

/// When a recorder hands the lines it built to its sink (for a file, when they reach the
/// operating system).
public enum FlushPolicy: Sendable, Equatable {
    /// After every batch of transactions the recorder's thread takes (one transaction when the
    /// app is not busy): a crash (even SIGKILL) loses no committed transaction that the
    /// recorder's thread had time to write, typically none.
    case everyTransaction
    /// Every this many milliseconds: a crash loses at most that window.
    case interval(milliseconds: Int)
    /// Only when the recorder closes (or `flush()` is called).
    case onClose
}
