import Foundation

/// A value under a lock that ThreadSanitizer sees.
///
/// Not `Synchronization.Mutex`: on Linux it waits on a futex directly, which ThreadSanitizer
/// does not intercept, so every access under it is reported as a race; `NSLock` is a pthread
/// mutex, whose lock and unlock the sanitizer knows.
public final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// A locked value, starting at `initial`.
    public init(_ initial: Value) {
        value = initial
    }

    /// Reads or changes the value while holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
