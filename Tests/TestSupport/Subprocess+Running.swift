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
    /// stderr are collected, and every wait suspends, with a time limit. Killed when dropped.
    public final class Running: Sendable {
        private struct State {
            var output = Data()
            var errors = Data()
            /// How many of stdout and stderr reached their end.
            var ended = 0
            /// The exit status (or the signal that ended it), once it ended.
            var termination: (status: Int32, bySignal: Bool)?
        }

        private let state = Watched(State())
        private let input: FileHandle
        private let command: [String]
        /// The process id.
        public let pid: Int32

        /// Starts `executable`.
        public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil) throws {
            let process = Subprocess.process(executable, arguments, environment: environment, directory: directory)
            let inputPipe = Pipe()
            let outputPipe = Pipe()
            let errorPipe = Pipe()
            process.standardInput = inputPipe
            process.standardOutput = outputPipe
            process.standardError = errorPipe
            let state = state
            process.terminationHandler = { process in
                let termination = (process.terminationStatus, process.terminationReason == .uncaughtSignal)
                state.update { $0.termination = termination }
            }
            try process.run()
            pid = process.processIdentifier
            input = inputPipe.fileHandleForWriting
            command = [executable] + arguments
            collect(outputPipe.fileHandleForReading, isError: false)
            collect(errorPipe.fileHandleForReading, isError: true)
        }

        deinit {
            if state.read({ $0.termination == nil }) {
                Foundation.kill(pid, SIGKILL)
            }
        }

        /// Everything written to stdout so far.
        public var stdout: String {
            state.read { String(decoding: $0.output, as: UTF8.self) }
        }

        /// Everything written to stderr so far.
        public var stderr: String {
            state.read { String(decoding: $0.errors, as: UTF8.self) }
        }

        /// Whether a signal ended the program (`nil` while it runs).
        public var endedBySignal: Bool? {
            state.read { $0.termination?.bySignal }
        }

        /// Whether the program is still running.
        public var isRunning: Bool {
            state.read { $0.termination == nil }
        }

        /// Writes a line to the program's stdin.
        public func send(_ line: String) {
            input.write(Data((line + "\n").utf8))
        }

        /// Writes `data` to the program's stdin and closes it, on a thread of its own: a
        /// large input waits for the program to read it, and that wait holds no test's thread.
        public func sendAndClose(_ data: Data) {
            let input = input
            Thread.detachNewThread {
                if !data.isEmpty {
                    try? input.write(contentsOf: data)
                }
                try? input.close()
            }
        }

        /// Closes the program's stdin.
        public func closeInput() {
            try? input.close()
        }

        /// Waits until `predicate` holds for stdout and stderr; `false` after `timeout` seconds.
        @discardableResult
        public nonisolated(nonsending) func wait(timeout: Double = 20, until predicate: (_ stdout: String, _ stderr: String) -> Bool) async -> Bool {
            await state.wait(timeout: timeout) {
                predicate(String(decoding: $0.output, as: UTF8.self), String(decoding: $0.errors, as: UTF8.self))
            }
        }

        /// Waits for the program to exit and returns its status (the signal's number when a
        /// signal ended it, as `Process` says); kills it and throws ``TimedOut`` after `timeout`
        /// seconds. With `drainingOutput`, also waits (within the same limit) until its
        /// stdout and stderr end, so ``stdout`` and ``stderr`` hold all it wrote.
        @discardableResult
        public nonisolated(nonsending) func waitForExit(timeout: Double = 20, drainingOutput: Bool = false) async throws -> Int32 {
            let exited = await state.wait(timeout: timeout) {
                $0.termination != nil && (!drainingOutput || $0.ended == 2)
            }
            guard exited else {
                Foundation.kill(pid, SIGKILL)
                // The kill ends it at once; the wait only collects its status and output.
                _ = await state.wait(timeout: 10) { $0.termination != nil }
                throw TimedOut(command: command, seconds: Patience.seconds(timeout))
            }
            return state.read { $0.termination?.status ?? 0 }
        }

        /// Kills the program with `signal`.
        public func kill(signal: Int32 = SIGKILL) {
            Foundation.kill(pid, signal)
        }

        /// Reads a pipe to its end on a thread of its own, signalling each chunk.
        private func collect(_ handle: FileHandle, isError: Bool) {
            let state = state
            Thread.detachNewThread {
                while true {
                    let chunk = handle.availableData
                    state.update { state in
                        if chunk.isEmpty {
                            state.ended += 1
                        } else if isError {
                            state.errors.append(chunk)
                        } else {
                            state.output.append(chunk)
                        }
                    }
                    if chunk.isEmpty { return }
                }
            }
        }
    }
}
