import Foundation

/// Runs the built `atoms-inspect` (or another product) and captures its output.
struct BinaryRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The path of a built executable next to the test bundle, or `nil`.
    static func executable(_ name: String) -> String? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent(name).path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ name: String, _ arguments: [String], stdin: String = "", environment: [String: String]? = nil) throws -> Result {
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
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let errorData = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: FileHandle.readAll(errors.fileHandleForReading, fallback: errorData), as: UTF8.self)
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self), stderr: stderr)
    }
}

private extension FileHandle {
    /// Waits for a detached reader's data.
    static func readAll(_ handle: FileHandle, fallback task: Task<Data, Never>) -> Data {
        let semaphore = DispatchSemaphore(value: 0)
        let box = DataBox()
        Task.detached {
            box.data = await task.value
            semaphore.signal()
        }
        semaphore.wait()
        return box.data
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
