import Foundation

/// A program run with a deadline: killed when it outlives it, with stdout and stderr kept
/// apart.
public enum TimedProcess {
    /// The program outlived its deadline and was killed.
    public struct Timeout: Error, CustomStringConvertible {
        /// The command line and the deadline.
        public let description: String
    }

    /// The path of `name` on `PATH`, or `nil` when it is not installed.
    public static func installed(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` in `directory` and waits, suspended, at most `timeout`
    /// seconds.
    ///
    /// - Throws: ``Timeout`` when it is still running at the deadline (it is then killed), or
    ///   the error of starting it.
    public static nonisolated(nonsending) func run(_ executable: String, _ arguments: [String], in directory: String? = nil, timeout: TimeInterval) async throws -> BuiltProducts.Run {
        do {
            return try await Subprocess.run(executable, arguments, directory: directory, timeout: timeout)
        } catch let error as Subprocess.TimedOut {
            throw Timeout(description: error.description)
        }
    }
}
