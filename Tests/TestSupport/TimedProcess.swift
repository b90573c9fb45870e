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

    /// Runs `executable` with `arguments` in `directory` and waits at most `timeout` seconds.
    ///
    /// - Throws: ``Timeout`` when it is still running at the deadline (it is then killed), or
    ///   the error of starting it.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil, timeout: TimeInterval) throws -> BuiltProducts.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let outputData = PipeReader(output.fileHandleForReading)
        let errorData = PipeReader(errors.fileHandleForReading)
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 10)
            throw Timeout(description: "\(([executable] + arguments).joined(separator: " ")) ran for more than \(Int(timeout)) s and was killed")
        }
        return BuiltProducts.Run(
            status: process.terminationStatus,
            stdout: String(decoding: outputData.wait(), as: UTF8.self),
            stderr: String(decoding: errorData.wait(), as: UTF8.self)
        )
    }
}
