import AtomsJournal

/// An error a user can cause: one line for stderr naming the input and what to do, and the
/// exit status.
public struct InspectorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The exit status to end with.
    public let status: ExitStatus
    /// `<file>[:<line>]: <what> — <what to do>`.
    public let message: String

    /// Creates an error.
    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The error from a journal or state-file problem.
    public init(_ error: JournalError) {
        switch error {
        case .cannotRead: status = .noInput
        case .cannotCreate, .writeFailed: status = .cannotCreate
        case .stepOutOfRange: status = .usage
        default: status = .dataError
        }
        message = error.description
    }

    /// The line printed on stderr: `atoms-inspect: <file>[:<line>]: error: <what> — <what to do>`.
    ///
    /// The location is the message's text before its first `": "`, when that has no spaces.
    public var description: String {
        if let separator = message.range(of: ": "), !message[..<separator.lowerBound].contains(" ") {
            return "atoms-inspect: \(message[..<separator.lowerBound]): error: \(message[separator.upperBound...])"
        }
        return "atoms-inspect: error: \(message)"
    }
}
