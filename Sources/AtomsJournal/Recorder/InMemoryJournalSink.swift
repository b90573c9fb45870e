import Synchronization

/// A sink that keeps lines in memory, for tests and for reading a journal without a file.
///
/// The recorder's thread appends lines as it builds them; call the recorder's `flush()` (or
/// `close()`) before reading ``lines``, as before reading a file.
public final class InMemoryJournalSink: JournalSink, Sendable {
    private struct State {
        var lines: [String] = []
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Creates an empty sink.
    public init() {}

    /// The lines stored so far.
    public var lines: [String] {
        state.withLock { $0.lines }
    }

    /// The journal text: the lines, each followed by a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Keeps each line, unless the sink is closed.
    public func append(_ lines: [UInt8]) {
        let split = lines.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
        state.withLock {
            if !$0.isClosed { $0.lines.append(contentsOf: split) }
        }
    }

    /// Nothing to make durable: lines are kept as they come.
    public func sync() {}

    /// Ignores the lines appended after this.
    public func close() {
        state.withLock { $0.isClosed = true }
    }
}
