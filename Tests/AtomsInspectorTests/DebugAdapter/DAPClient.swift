import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// A Debug Adapter Protocol client as an editor is one: it frames requests on one pipe and
/// reads responses and events from another, every read limited by a timeout.
///
/// The adapter runs in this process (``DebugAdapterServer`` on a thread, over pipes) or as
/// the built `atoms-inspect dap`. Every message received is kept, for ``validateAgainstSchema()``.
final class DAPClient {
    typealias Message = [String: Any]

    private let toAdapter: Int32
    private let fromAdapter: Int32
    private var reader: DAPFrameReader
    private var seq = 0
    /// Events received and not yet taken by ``event(_:)``.
    private var pendingEvents: [Message] = []
    /// Every message the adapter sent, as received.
    private(set) var received: [[UInt8]] = []
    private let finished: EndedStatus?
    private let process: Process?
    /// The binary's pipes, kept for as long as the client: a `Pipe` closes its descriptors
    /// when it goes, and a number closed early is soon another test's.
    private let pipes: [Pipe]
    /// The adapter's stderr, for the binary.
    private let errors: Pipe?
    /// Whether the adapter's input was closed (``closeInput()``).
    private var inputClosed = false

    /// Seconds any one read waits.
    static let timeout: Int32 = 20_000

    /// Runs the adapter in this process, its working directory `directory`.
    init(workingDirectory directory: String) throws {
        var requests: [Int32] = [0, 0]
        var responses: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&responses) == 0 else { throw POSIXError(.EMFILE) }
        toAdapter = requests[1]
        fromAdapter = responses[0]
        reader = Self.timedReader(responses[0])
        let gate = EndedStatus()
        finished = gate
        process = nil
        errors = nil
        pipes = []
        let (input, output) = (requests[0], responses[1])
        Thread.detachNewThread {
            let status = DebugAdapterServer.run(DebugAdapter(workingDirectory: directory), input: input, output: output) { _ in }
            close(input)
            close(output)
            gate.set(status.rawValue)
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
        try process.run()
        toAdapter = input.fileHandleForWriting.fileDescriptor
        fromAdapter = output.fileHandleForReading.fileDescriptor
        reader = Self.timedReader(fromAdapter)
        finished = nil
        self.process = process
        self.errors = errors
        pipes = [input, output, errors]
    }

    deinit {
        if let process, process.isRunning { process.terminate() }
        // The in-process client's own ends; the binary's close with their pipes.
        if pipes.isEmpty {
            if !inputClosed { close(toAdapter) }
            close(fromAdapter)
        }
    }

    /// A frame reader whose reads fail after ``timeout`` without input.
    private static func timedReader(_ descriptor: Int32) -> DAPFrameReader {
        DAPFrameReader { (bytes: inout [UInt8]) throws(DAPFramingError) -> Int in
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, timeout) > 0 else { throw .readFailed(errno: ETIMEDOUT) }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(descriptor, &chunk, chunk.count)
            guard count >= 0 else { throw .readFailed(errno: errno) }
            bytes += chunk[0..<count]
            return count
        }
    }

    /// Writes raw bytes to the adapter.
    func write(raw bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Foundation.write(toAdapter, $0.baseAddress, $0.count) }
    }

    /// Closes the adapter's input.
    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        if pipes.isEmpty {
            close(toAdapter)
        } else {
            try? pipes[0].fileHandleForWriting.close()
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
    func next() throws -> Message {
        guard let body = try reader.next() else { throw POSIXError(.EPIPE) }
        received.append(body)
        return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? Message)
    }

    /// Sends a request and reads up to its response; events on the way are kept.
    @discardableResult
    func request(_ command: String, _ arguments: Message? = nil) throws -> Message {
        let number = try send(command, arguments)
        while true {
            let message = try next()
            if message["type"] as? String == "event" {
                pendingEvents.append(message)
            } else if message["request_seq"] as? Int == number {
                return message
            }
        }
    }

    /// A request's body, which must have succeeded.
    func body(_ command: String, _ arguments: Message? = nil) throws -> Message {
        let response = try request(command, arguments)
        #expect(response["success"] as? Bool == true, "\(command): \(response["message"] ?? "")")
        return response["body"] as? Message ?? [:]
    }

    /// The next event named `name` (events before it are dropped).
    func event(_ name: String) throws -> Message {
        while true {
            let message = pendingEvents.isEmpty ? try next() : pendingEvents.removeFirst()
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
    func launch(_ journal: String, stopOnEntry: Bool = true, extra: Message = [:], configure: (DAPClient) throws -> Void = { _ in }) throws -> Message {
        let capabilities = try body("initialize", ["adapterID": "atoms", "linesStartAt1": true, "columnsStartAt1": true])
        #expect(capabilities["supportsStepBack"] as? Bool == true)
        var arguments: Message = ["journal": journal, "stopOnEntry": stopOnEntry]
        arguments.merge(extra) { $1 }
        let launched = try request("launch", arguments)
        #expect(launched["success"] as? Bool == true, "\(launched["message"] ?? "")")
        _ = try event("initialized")
        try configure(self)
        _ = try body("configurationDone")
        return try event("stopped")
    }

    /// The top frame.
    func topFrame() throws -> Message {
        let frames = try #require(try body("stackTrace", ["threadId": 1])["stackFrames"] as? [Message])
        #expect(frames.count == 1)
        return try #require(frames.first)
    }

    /// The step the top frame names (`step N · …`).
    func position() throws -> Int {
        let name = try #require(try topFrame()["name"] as? String)
        return try #require(Int(name.dropFirst(5).prefix { $0.isNumber }))
    }

    /// Moves (`next`, `stepBack`, `continue`, …) and returns the `stopped` event's body.
    func move(_ command: String) throws -> Message {
        _ = try body(command, ["threadId": 1])
        return try #require(try event("stopped")["body"] as? Message)
    }

    /// The variables of a reference, by name.
    func variables(_ reference: Int) throws -> [Message] {
        try #require(try body("variables", ["variablesReference": reference])["variables"] as? [Message])
    }

    /// A variable's value rebuilt as JSON from its text and children, as an editor shows it.
    func value(of variable: Message) throws -> Any {
        let reference = variable["variablesReference"] as? Int ?? 0
        guard reference > 0 else {
            let text = try #require(variable["value"] as? String)
            return try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        }
        let children = try variables(reference)
        if variable["indexedVariables"] != nil {
            return try children.map { try value(of: $0) }
        }
        var object: [String: Any] = [:]
        for child in children {
            object[try #require(child["name"] as? String)] = try value(of: child)
        }
        return object
    }

    /// Sends `disconnect` and waits for the adapter to end; returns its exit status.
    func disconnect() throws -> Int32 {
        _ = try body("disconnect")
        return try waitForEnd()
    }

    /// Waits for the adapter to end; returns its status.
    func waitForEnd() throws -> Int32 {
        if let finished {
            return try #require(finished.wait(timeout: 20))
        }
        let process = try #require(process)
        let deadline = Date(timeIntervalSinceNow: 20)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning, "the adapter ends within 20 s")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "the adapter exits, never by a signal")
        return process.terminationStatus
    }

    /// The binary's stderr, once it ended.
    var stderr: String {
        String(decoding: errors?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    // MARK: The schema

    /// Validates every message received against the official schema; `false` when Python's
    /// `jsonschema` is not installed (the test then says it did not validate).
    @discardableResult
    func validateAgainstSchema(sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        try DAPSchema.validate(received, sourceLocation: sourceLocation)
    }
}

/// The official Debug Adapter Protocol schema, run by `Schema/validate.py`.
enum DAPSchema {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schema")

    /// Whether `python3` can import `jsonschema`.
    static let isAvailable: Bool = {
        guard let run = try? Subprocess.run("/usr/bin/env", ["python3", "-c", "import jsonschema"], timeout: 30) else { return false }
        return run.status == 0
    }()

    /// Validates messages; records an issue for each invalid one.
    @discardableResult
    static func validate(_ messages: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        guard isAvailable else {
            print("DebugAdapter tests: jsonschema is not installed (pip install jsonschema): \(messages.count) messages not validated against the schema")
            return false
        }
        let directory = try TemporaryDirectory()
        let lines = messages.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n"
        try lines.write(toFile: directory.path("messages.jsonl"), atomically: true, encoding: .utf8)
        let run = try Subprocess.run("/usr/bin/env", ["python3", folder.appendingPathComponent("validate.py").path, directory.path("messages.jsonl")], timeout: 120)
        #expect(run.status == 0, "messages that do not validate:\n\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
        return run.status == 0
    }
}

/// The in-process adapter's exit status, set by its thread.
final class EndedStatus: @unchecked Sendable {
    // Unchecked: every access holds the condition's lock.
    private let condition = NSCondition()
    private var status: Int32?

    func set(_ value: Int32) {
        condition.lock()
        status = value
        condition.broadcast()
        condition.unlock()
    }

    /// The status, or `nil` when the adapter has not ended within `timeout` seconds.
    func wait(timeout: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while status == nil, condition.wait(until: deadline) {}
        return status
    }
}
