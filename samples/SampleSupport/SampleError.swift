/// A command a sample could not carry out; printed on stderr, and the session goes on.
public struct SampleError: Error, CustomStringConvertible {
    /// What went wrong and what to type instead.
    public let description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}
