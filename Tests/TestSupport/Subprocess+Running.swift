import Foundation

extension Subprocess {
    /// A process for `executable`, not yet started.
    static func process(_ executable: String, _ arguments: [String], environment: [String: String]?, directory: String?) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        return process
    }

    /// A program left running while a test talks to it: lines go to its stdin, its stdout and
    /// stderr are collected, and every wait has a time limit. Killed when dropped.
    public final class Running: @unchecked Sendable {
        // Unchecked: `output` and `errors` are guarded by `condition`.
        private let process: Process
        private let input = Pipe()
        private let condition = NSCondition()
        private var output = Data()
        private var errors = Data()
        private var ended = 0

        /// The process id.
        public var pid: Int32 { process.processIdentifier }

        /// Starts `executable`.
        public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil) throws {
            process = Subprocess.process(executable, arguments, environment: environment, directory: directory)
            let outputPipe = Pipe()
            let errorPipe = Pipe()
            process.standardInput = input
            process.standardOutput = outputPipe
            process.standardError = errorPipe
            try process.run()
            collect(outputPipe.fileHandleForReading, isError: false)
            collect(errorPipe.fileHandleForReading, isError: true)
        }

        deinit {
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        }

        /// Everything written to stdout so far.
        public var stdout: String {
            condition.lock()
            defer { condition.unlock() }
            return String(decoding: output, as: UTF8.self)
        }

        /// Everything written to stderr so far.
        public var stderr: String {
            condition.lock()
            defer { condition.unlock() }
            return String(decoding: errors, as: UTF8.self)
        }

        /// Writes a line to the program's stdin.
        public func send(_ line: String) {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
        }

        /// Closes the program's stdin.
        public func closeInput() {
            try? input.fileHandleForWriting.close()
        }

        /// Waits until `predicate` holds for stdout or stderr; `false` after `timeout` seconds.
        @discardableResult
        public func wait(timeout: Double = 20, until predicate: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while !predicate(String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)) {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }

        /// Waits for the program to exit (killing it after `timeout` seconds) and returns its status.
        public func waitForExit(timeout: Double = 20) throws -> Int32 {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while process.isRunning && Date() < deadline {
                usleep(10_000)
            }
            if process.isRunning {
                Foundation.kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw TimedOut(command: [process.executableURL?.path ?? ""] + (process.arguments ?? []), seconds: timeout)
            }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// Kills the program with `signal`.
        public func kill(signal: Int32 = SIGKILL) {
            Foundation.kill(process.processIdentifier, signal)
        }

        private func collect(_ handle: FileHandle, isError: Bool) {
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    condition.lock()
                    if chunk.isEmpty {
                        ended += 1
                    } else {
                        if isError { errors.append(chunk) } else { output.append(chunk) }
                    }
                    condition.broadcast()
                    condition.unlock()
                    if chunk.isEmpty { return }
                }
            }
        }
    }
}
