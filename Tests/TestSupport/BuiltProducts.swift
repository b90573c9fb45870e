import Foundation

/// Executables built alongside the tests (`swift build` / `swift test` put them next to the
/// test bundle), and a way to run them with stdout, stderr and the exit status kept apart.
public enum BuiltProducts {
    /// What a run printed and how it ended.
    public struct Run: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything written to stdout.
        public let stdout: String
        /// Everything written to stderr.
        public let stderr: String
    }

    /// The path of a built executable, or `nil` when it was not built.
    public static func executable(_ name: String) -> String? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent(name).path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a built executable with `stdin` as its input and waits, suspended, for it to exit
    /// (killed, and ``Subprocess/TimedOut`` thrown, after five minutes).
    public static nonisolated(nonsending) func run(_ name: String, _ arguments: [String], stdin: String = "", environment: [String: String]? = nil) async throws -> Run {
        guard let executable = executable(name) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) is not built: run `swift build` first"])
        }
        return try await Subprocess.run(executable, arguments, stdin: stdin, environment: environment, timeout: 300)
    }
}
