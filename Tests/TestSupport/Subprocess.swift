import Foundation

/// Runs any program with a time limit, stdout, stderr and the exit status kept apart.
///
/// Every wait suspends (``ChangeSignal``): a test waiting for a program holds no thread, so
/// the tests that run meanwhile, on the main actor or not, are never starved by it. Foundation's
/// `Process` starts the program; its output is read on threads of its own, never on a
/// cooperative one.
public enum Subprocess {
    /// A program that ran past its time limit (it was killed).
    public struct TimedOut: Error, CustomStringConvertible {
        /// The program and its arguments.
        public let command: [String]
        /// The limit, in seconds.
        public let seconds: Double

        public var description: String {
            "\(command.joined(separator: " ")) did not finish within \(Int(seconds)) s and was killed"
        }
    }

    /// Runs `executable` with `stdin` as its input and waits for it to exit and its output to
    /// end, killing it (and throwing ``TimedOut``) after `timeout` seconds.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: String = "",
        environment: [String: String]? = nil,
        directory: String? = nil,
        timeout: Double = 120
    ) async throws -> BuiltProducts.Run {
        let running = try Running(executable, arguments, environment: environment, directory: directory)
        running.sendAndClose(Data(stdin.utf8))
        let status = try await running.waitForExit(timeout: timeout, drainingOutput: true)
        return BuiltProducts.Run(status: status, stdout: running.stdout, stderr: running.stderr)
    }
}
