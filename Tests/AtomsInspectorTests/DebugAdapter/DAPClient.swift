import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// A Debug Adapter Protocol client as an editor is one: it frames requests on one pipe and
/// reads responses and events from another, every read limited by a timeout.
///
/// The adapter runs in this process (``DebugAdapterServer`` on a thread, over pipes) or as
/// the built `atoms-inspect dap`. A thread of the client's own reads the adapter's frames
/// (``DAPInbox``); a test waiting for one suspends and holds no thread. Every message
/// received is kept, for ``validateAgainstSchema()``.
final class DAPClient {
    typealias Message = [String: Any]

    private let toAdapter: Int32
    private let inbox: DAPInbox
    private var seq = 0
    /// Events received and not yet taken by ``event(_:)``.
    private var pendingEvents: [Message] = []
    /// Every message the adapter sent, as received.
    private(set) var received: [[UInt8]] = []
    /// The adapter's exit status once it ended (with whether a signal ended it).
    private let finished = EndedStatus()
    private let process: Process?
    /// The binary's stdin, kept for as long as the client: a `Pipe` closes its descriptors
    /// when it goes, and a number closed early is soon another test's.
    private let input: Pipe?
    /// The adapter's stderr, for the binary.
    private let errors: Pipe?
    /// Whether the adapter's input was closed (``closeInput()``).
    private var inputClosed = false

    /// Seconds any one read waits.
    static let timeout: Double = 20

    /// Runs the adapter in this process, its working directory `directory`.
    init(workingDirectory directory: String) throws {
        var requests: [Int32] = [0, 0]
        var responses: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&responses) == 0 else { throw POSIXError(.EMFILE) }
        toAdapter = requests[1]
        // The inbox's thread closes the descriptor when the adapter's output ends.
        inbox = DAPInbox(descriptor: responses[0], closingIt: true)
        let gate = finished
        process = nil
        input = nil
        errors = nil
        let (input, output) = (requests[0], responses[1])
        Thread.detachNewThread {
            let status = DebugAdapterServer.run(DebugAdapter(workingDirectory: directory), input: input, output: output) { _ in }
            close(input)
            close(output)
            gate.set(status.rawValue, bySignal: false)
        }
    }

    /// Runs the built `atoms-inspect dap` in `directory`.
    init(binary: String, directory: String, environment: [String: String]? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["dap"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if let environment { process.environment = environment }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let gate = finished
        process.terminationHandler = { process in
            gate.set(process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal)
        }
        try process.run()
        toAdapter = input.fileHandleForWriting.fileDescriptor
        // The inbox's thread holds the handle, and with it the descriptor, until it is done.
        inbox = DAPInbox(handle: output.fileHandleForReading)
        self.process = process
        self.input = input
        self.errors = errors
    }

    deinit {
        if let process, process.isRunning { process.terminate() }
        // The in-process client's own end; the binary's closes with its pipe.
        if input == nil, !inputClosed { close(toAdapter) }
    }

    /// Writes raw bytes to the adapter.
    func write(raw bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Foundation.write(toAdapter, $0.baseAddress, $0.count) }
    }

    /// Closes the adapter's input.
    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        if let input {
            try? input.fileHandleForWriting.close()
        } else {
            close(toAdapter)
        }
    }

    /// Sends a request; returns its sequence number.
    @discardableResult
    func send(_ command: String, _ arguments: Message? = nil) throws -> Int {
        seq += 1
        var message: Message = ["seq": seq, "type": "request", "command": command]
        if let arguments { message["arguments"] = arguments }
        write(raw: DAPFrameWriter.frame(Array(try JSONSerialization.data(withJSONObject: message))))
        return seq
    }

    /// The next message from the adapter.
    nonisolated(nonsending) func next() async throws -> Message {
        let body = try await inbox.next(timeout: Self.timeout)
        received.append(body)
        return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? Message)
    }

    /// Sends a request and reads up to its response; events on the way are kept.
    @discardableResult
    nonisolated(nonsending) func request(_ command: String, _ arguments: Message? = nil) async throws -> Message {
        let number = try send(command, arguments)
        while true {
            let message = try await next()
            if message["type"] as? String == "event" {
                pendingEvents.append(message)
            } else if message["request_seq"] as? Int == number {
                return message
            }
        }
    }

    /// A request's body, which must have succeeded.
    nonisolated(nonsending) func body(_ command: String, _ arguments: Message? = nil) async throws -> Message {
        let response = try await request(command, arguments)
        #expect(response["success"] as? Bool == true, "\(command): \(response["message"] ?? "")")
        return response["body"] as? Message ?? [:]
    }

    /// The next event named `name` (events before it are dropped).
    nonisolated(nonsending) func event(_ name: String) async throws -> Message {
        while true {
            let message = pendingEvents.isEmpty ? try await next() : pendingEvents.removeFirst()
            if message["type"] as? String == "event", message["event"] as? String == name {
                return message
            }
        }
    }

    /// Events received and not taken, emptied.
    func takeEvents() -> [Message] {
        defer { pendingEvents = [] }
        return pendingEvents
    }

    // MARK: A session

    /// initialize → launch → initialized → (breakpoints) → configurationDone → stopped.
    @discardableResult
    nonisolated(nonsending) func launch(_ journal: String, stopOnEntry: Bool = true, extra: Message = [:], configure: nonisolated(nonsending) (DAPClient) async throws -> Void = { _ in }) async throws -> Message {
        let capabilities = try await body("initialize", ["adapterID": "atoms", "linesStartAt1": true, "columnsStartAt1": true])
        #expect(capabilities["supportsStepBack"] as? Bool == true)
        var arguments: Message = ["journal": journal, "stopOnEntry": stopOnEntry]
        arguments.merge(extra) { $1 }
        let launched = try await request("launch", arguments)
        #expect(launched["success"] as? Bool == true, "\(launched["message"] ?? "")")
        _ = try await event("initialized")
        try await configure(self)
        _ = try await body("configurationDone")
        return try await event("stopped")
    }

    /// The top frame.
    nonisolated(nonsending) func topFrame() async throws -> Message {
        let frames = try #require(try await body("stackTrace", ["threadId": 1])["stackFrames"] as? [Message])
        #expect(frames.count == 1)
        return try #require(frames.first)
    }

    /// The step the top frame names (`step N · …`).
    nonisolated(nonsending) func position() async throws -> Int {
        let name = try #require(try await topFrame()["name"] as? String)
        return try #require(Int(name.dropFirst(5).prefix { $0.isNumber }))
    }

    /// Moves (`next`, `stepBack`, `continue`, …) and returns the `stopped` event's body.
    nonisolated(nonsending) func move(_ command: String) async throws -> Message {
        _ = try await body(command, ["threadId": 1])
        return try #require(try await event("stopped")["body"] as? Message)
    }

    /// The variables of a reference, by name.
    nonisolated(nonsending) func variables(_ reference: Int) async throws -> [Message] {
        try #require(try await body("variables", ["variablesReference": reference])["variables"] as? [Message])
    }

    /// A variable's value rebuilt as JSON from its text and children, as an editor shows it.
    nonisolated(nonsending) func value(of variable: Message) async throws -> Any {
        let reference = variable["variablesReference"] as? Int ?? 0
        guard reference > 0 else {
            let text = try #require(variable["value"] as? String)
            return try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        }
        let children = try await variables(reference)
        if variable["indexedVariables"] != nil {
            var values: [Any] = []
            for child in children {
                values.append(try await value(of: child))
            }
            return values
        }
        var object: [String: Any] = [:]
        for child in children {
            object[try #require(child["name"] as? String)] = try await value(of: child)
        }
        return object
    }

    /// Sends `disconnect` and waits for the adapter to end; returns its exit status.
    nonisolated(nonsending) func disconnect() async throws -> Int32 {
        _ = try await body("disconnect")
        return try await waitForEnd()
    }

    /// Waits for the adapter to end; returns its status.
    nonisolated(nonsending) func waitForEnd() async throws -> Int32 {
        let ended = await finished.wait(timeout: 20)
        if ended == nil, let process {
            #expect(Bool(false), "the adapter ends within 20 s")
            process.terminate()
            _ = await finished.wait(timeout: 10)
        }
        let (status, bySignal) = try #require(await finished.wait(timeout: 0), "the adapter ended")
        #expect(!bySignal, "the adapter exits, never by a signal")
        return status
    }

    /// The binary's stderr, once it ended.
    var stderr: String {
        String(decoding: errors?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    // MARK: The schema

    /// Validates every message received against the official schema; `false` when Python's
    /// `jsonschema` is not installed (the test then says it did not validate).
    @discardableResult
    nonisolated(nonsending) func validateAgainstSchema(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
        try await DAPSchema.validate(received, sourceLocation: sourceLocation)
    }
}

/// The official Debug Adapter Protocol schema, run by `Schema/validate.py`.
enum DAPSchema {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schema")

    /// Whether `python3` can import `jsonschema`.
    static var isAvailable: Bool {
        get async {
            if let known = availability.withLock({ $0 }) { return known }
            let run = try? await Subprocess.run("/usr/bin/env", ["python3", "-c", "import jsonschema"], timeout: 30)
            let available = run?.status == 0
            availability.withLock { $0 = available }
            return available
        }
    }

    /// Whether `jsonschema` imports, once asked.
    private static let availability = Locked<Bool?>(nil)

    /// Validates messages; records an issue for each invalid one.
    @discardableResult
    static nonisolated(nonsending) func validate(_ messages: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
        guard await isAvailable else {
            print("DebugAdapter tests: jsonschema is not installed (pip install jsonschema): \(messages.count) messages not validated against the schema")
            return false
        }
        let directory = try TemporaryDirectory()
        let lines = messages.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n"
        try lines.write(toFile: directory.path("messages.jsonl"), atomically: true, encoding: .utf8)
        let run = try await Subprocess.run("/usr/bin/env", ["python3", folder.appendingPathComponent("validate.py").path, directory.path("messages.jsonl")], timeout: 120)
        #expect(run.status == 0, "messages that do not validate:\n\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
        return run.status == 0
    }
}

/// The adapter's exit status, set by its thread or by its process's end.
final class EndedStatus: Sendable {
    private let status = Watched<(status: Int32, bySignal: Bool)?>(nil)

    func set(_ value: Int32, bySignal: Bool) {
        status.update { $0 = (value, bySignal) }
    }

    /// The status, or `nil` when the adapter has not ended within `timeout` seconds.
    nonisolated(nonsending) func wait(timeout: Double) async -> (status: Int32, bySignal: Bool)? {
        _ = await status.wait(timeout: timeout) { $0 != nil }
        return status.read { $0 }
    }
}

/// The frames an adapter sent, read on a thread of the inbox's own (a blocking read there
/// holds none of the threads tests run on), and taken by suspending waits.
final class DAPInbox: Sendable {
    private struct State {
        var frames: [[UInt8]] = []
        /// Why no more frames will come: the end of the output, or a framing error.
        var end: (any Error)?
    }

    private let state = Watched(State())

    /// Reads `descriptor`, closing it at the end when `closingIt`.
    convenience init(descriptor: Int32, closingIt: Bool) {
        self.init { descriptor } done: {
            if closingIt { close(descriptor) }
        }
    }

    /// Reads a file handle's descriptor, holding the handle (which closes it) until the end.
    convenience init(handle: FileHandle) {
        self.init { handle.fileDescriptor } done: {
            withExtendedLifetime(handle) {}
        }
    }

    private init(descriptor: @escaping @Sendable () -> Int32, done: @escaping @Sendable () -> Void) {
        let state = state
        Thread.detachNewThread {
            var reader = DAPFrameReader(descriptor: descriptor())
            while true {
                do {
                    guard let body = try reader.next() else {
                        state.update { $0.end = POSIXError(.EPIPE) }
                        break
                    }
                    state.update { $0.frames.append(body) }
                } catch {
                    state.update { $0.end = error }
                    break
                }
            }
            done()
        }
    }

    /// The next frame's body; throws at the end of the output, or after `timeout` seconds
    /// without a frame.
    nonisolated(nonsending) func next(timeout: Double) async throws -> [UInt8] {
        let arrived = await state.wait(timeout: timeout) { !$0.frames.isEmpty || $0.end != nil }
        guard arrived else { throw POSIXError(.ETIMEDOUT) }
        return try state.update { state in
            guard !state.frames.isEmpty else { throw state.end ?? POSIXError(.EPIPE) }
            return state.frames.removeFirst()
        }
    }
}
