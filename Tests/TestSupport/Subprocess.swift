import Foundation

/// Runs any program with a time limit, stdout, stderr and the exit status kept apart.
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

    /// Runs `executable` with `stdin` as its input and waits for it to exit, killing it (and
    /// throwing ``TimedOut``) after `timeout` seconds.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: String = "",
        environment: [String: String]? = nil,
        directory: String? = nil,
        timeout: Double = 120
    ) throws -> BuiltProducts.Run {
        let process = Subprocess.process(executable, arguments, environment: environment, directory: directory)
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let killer = DispatchWorkItem { [process] in
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let outputData = DataReader(output.fileHandleForReading)
        let errorData = DataReader(errors.fileHandleForReading)
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // The readers end when the process exits or is killed.
        let stdout = outputData.wait()
        let stderr = errorData.wait()
        process.waitUntilExit()
        killer.cancel()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL {
            throw TimedOut(command: [executable] + arguments, seconds: timeout)
        }
        return BuiltProducts.Run(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}

/// Reads a pipe to its end on a background thread.
private final class DataReader: @unchecked Sendable {
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
