import Synchronization

/// A sink that keeps lines in memory, for tests and for reading a journal without a file.
///
/// A recorder writes each transaction's lines to it as the transaction commits, so ``lines``
/// is complete without a flush.
public final class InMemoryJournalSink: JournalSink, Sendable {
    private struct State {
        var lines: [String] = []
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Creates an empty sink.
    public init() {}

    /// The lines written so far.
    public var lines: [String] {
        state.withLock { $0.lines }
    }

    /// The journal text: the lines, each followed by a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Keeps a line, unless the sink is closed.
    public func write(line: String) {
        state.withLock {
            if !$0.isClosed { $0.lines.append(line) }
        }
    }

    /// Nothing to flush: lines are kept as they come.
    public func flush() throws {}

    /// Lines arrive on the committing thread, so a test sees them at once.
    public var receivesLinesAtCommit: Bool { true }

    /// Ignores the lines written after this.
    public func close() throws {
        state.withLock { $0.isClosed = true }
    }
}
