/// The error a replay gives an asynchronous atom whose recorded phase is a failure: it says
/// what the recorded error said of itself (`String(describing:)`), so that what today's code
/// derives from that description (a message shown) can be checked against the recording.
/// Code that matches the error's type, or reads `localizedDescription`, sees a
/// `RecordedFailure` instead.
///
/// ## Example
/// ```swift
/// if case .failure(let error as RecordedFailure) = context.watch(SearchAtom().phase) {
///     print(error.description)  // "the movie service is unavailable for 'offline'"
/// }
/// ```
public struct RecordedFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The recorded error's `String(describing:)` (or, for a journal recorded before that was
    /// written, the recorded phase's dump).
    public let description: String

    /// A recorded failure that says `description`.
    public init(description: String) {
        self.description = description
    }
}
