/// A value that other threads change (a program's output and exit, frames a reader thread
/// took), and waits that suspend until it satisfies a condition.
///
/// Every change goes through ``update(_:)``, which wakes the waiters; a waiter re-checks its
/// condition after each change and holds no thread in between (``ChangeSignal``).
public final class Watched<Value: Sendable>: Sendable {
    private let value: Locked<Value>
    private let changes = ChangeSignal()

    /// A watched value, starting at `initial`.
    public init(_ initial: Value) {
        value = Locked(initial)
    }

    /// Reads the value under its lock.
    public func read<Result: Sendable>(_ body: (Value) throws -> Result) rethrows -> Result {
        try value.withLock { try body($0) }
    }

    /// Changes the value under its lock, then wakes every waiter.
    @discardableResult
    public func update<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let result = try value.withLock { try body(&$0) }
        changes.signal()
        return result
    }

    /// Suspends until `condition` holds for the value; `false` when `timeout` seconds pass
    /// first (or the task is cancelled).
    public nonisolated(nonsending) func wait(timeout: Double, until condition: (Value) throws -> Bool) async rethrows -> Bool {
        try await changes.wait(timeout: timeout) {
            try value.withLock { try condition($0) }
        }
    }
}
