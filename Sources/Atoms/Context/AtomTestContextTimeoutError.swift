/// Thrown by ``AtomTestContext/waitForUpdate(within:)`` and
/// ``AtomTestContext/wait(for:within:until:)`` when the timeout elapses first.
public struct AtomTestContextTimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The timeout that elapsed, in seconds.
    public let timeout: Double

    /// Creates the error for a timeout in seconds.
    public init(timeout: Double) {
        self.timeout = timeout
    }

    /// A sentence naming the timeout.
    public var description: String {
        "Timed out after \(timeout) seconds waiting for an atom update."
    }
}
