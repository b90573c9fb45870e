import Foundation

/// Runs blocking work (a socket's read, a call that waits for another process) on a thread
/// of its own and suspends until it returns: the wait holds neither the main actor nor one of
/// the few cooperative threads that other tests run on.
public enum OwnThread {
    /// The value `work` returns, or the error it throws, once its thread finished it.
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
