import Foundation

/// A sink that keeps lines in memory, for tests and for reading a journal without a file.
///
/// A recorder writes each transaction's lines to it as the transaction commits, so ``lines``
/// is complete without a flush.
public final class InMemoryJournalSink: JournalSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    private var isClosed = false

    /// Creates an empty sink.
    public init() {}

    /// The lines written so far.
    public var lines: [String] {
        lock.withLock { storage }
    }

    /// The journal text: the lines, each followed by a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    public func write(line: String) {
        lock.withLock {
            if !isClosed { storage.append(line) }
        }
    }

    public func flush() throws {}

    public var receivesLinesAtCommit: Bool { true }

    public func close() throws {
        lock.withLock { isClosed = true }
    }
}
