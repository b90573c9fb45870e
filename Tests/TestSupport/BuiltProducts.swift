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

    /// Runs a built executable with `stdin` as its input and waits for it to exit.
    public static func run(_ name: String, _ arguments: [String], stdin: String = "", environment: [String: String]? = nil) throws -> Run {
        guard let executable = executable(name) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) is not built: run `swift build` first"])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = environment
        }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read stderr on another thread so neither pipe can fill up and block the child.
        let errorData = PipeReader(errors.fileHandleForReading)
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.wait(), as: UTF8.self)
        )
    }
}

/// Reads a pipe to its end on a background thread.
final class PipeReader: @unchecked Sendable {
    // Unchecked: `data` is written once by the reader thread before `done` is signalled.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
