import AtomsJournalReader

/// An error a user can cause: one line for stderr naming the input and what to do, and the
/// exit status.
package struct InspectorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The exit status to end with.
    package let status: ExitStatus
    /// The input the error is about (a journal, a rules file, an output path), when there is one.
    package let path: String?
    /// The line of `path` (1-based), when the error is about one.
    package let line: Int?
    /// `<what> — <what to do>`.
    package let message: String

    /// Creates an error about no file in particular.
    package init(_ status: ExitStatus, _ message: String) {
        self.init(status, path: nil, message)
    }

    /// Creates an error about a file, or a line of it.
    package init(_ status: ExitStatus, path: String?, line: Int? = nil, _ message: String) {
        self.status = status
        self.path = path
        self.line = line
        self.message = message
    }

    /// The error from a journal or state-file problem.
    package init(_ error: JournalError) {
        let status: ExitStatus =
            switch error {
            case .cannotRead: .noInput
            case .cannotCreate: .cannotCreate
            case .writeFailed: .ioError
            case .stepOutOfRange: .usage
            case .changedWhileReading: .tryAgain
            default: .dataError
            }
        self.init(status, path: error.path, line: error.line, error.reason)
    }

    /// The line printed on stderr: `atoms-inspect: <file>[:<line>]: error: <what> — <what to do>`.
    package var description: String {
        guard let path else {
            return "atoms-inspect: error: \(message)"
        }
        return "atoms-inspect: \(path)\(line.map { ":\($0)" } ?? ""): error: \(message)"
    }
}
