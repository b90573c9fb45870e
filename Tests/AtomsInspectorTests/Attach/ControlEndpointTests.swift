import Atoms
@testable import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

/// A Codable value the journal can restore.
private struct CountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// A value that is not Codable: recorded as a dump, never restored.
private final class Handle: @unchecked Sendable {}
private struct HandleAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Handle { Handle() }
}

/// A recording program in this process, with its control endpoint and a client.
@MainActor
private struct Program {
    let directory: TemporaryDirectory
    let root = AtomRoot()
    let context: AtomViewContext
    let recorder: JournalRecorder
    let endpoint: ControlEndpoint
    var journal: String { directory.path("j.jsonl") }

    init(acceptedUser: uid_t = getuid(), queueLimit: Int = 1 << 20, flush: FlushPolicy = .everyTransaction) throws {
        directory = try TemporaryDirectory()
        context = root.viewContext()
        context.watch(CountAtom())
        context.watch(HandleAtom())
        recorder = try JournalRecorder(path: directory.path("j.jsonl"), flush: flush)
        recorder.attach(to: root.store)
        endpoint = try recorder.listen(at: directory.path("c.sock"), acceptedUser: acceptedUser, queueLimit: queueLimit)
    }

    var count: Int {
        get { context.read(CountAtom()) }
        nonmutating set { context[CountAtom()] = newValue }
    }

    func connect() async throws -> ControlConnection {
        let path = endpoint.path
        return try await OwnThread.run { try ControlConnection(path: path) }
    }
}

/// How long a test waits for a reply or a raw line. The program answers on the main actor,
/// which the rest of the suite shares (and holds for seconds at a time in some tests): the
/// wait is for that queue, not for the protocol.
private let replyTimeout: Double = 240

/// Sends a request from a thread of its own, so the main actor is free to answer it and no
/// cooperative thread waits for the reply.
private func ask<Body: Decodable & Sendable>(_ connection: ControlConnection, _ line: String, as body: Body.Type) async throws -> Body {
    let message = try await OwnThread.run { try connection.request(line, timeout: Patience.seconds(replyTimeout)) }
    return try message.decode(body)
}

/// A jump the test asked for, and the step its restore was recorded as.
private struct Jump: Sendable {
    let step: Int
    let recorded: Int?
}

/// What a raw socket receives until `marker` arrives (or `timeout` seconds pass).
private func rawReplies(_ descriptor: Int32, until marker: String, timeout: Double = replyTimeout) async -> String {
    // The socket's reads block: on a thread of their own.
    (try? await OwnThread.run {
        var text = ""
        let deadline = Patience.date(after: timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !text.contains(marker) && Date() < deadline {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return text
    }) ?? ""
}

// Each request waits at most `replyTimeout` for its reply; the suite's limit is a backstop. It is
// wide because these tests need the main actor, which the rest of the suite shares: under
// ThreadSanitizer (.ci/tsan-tests.sh) they can wait minutes for it behind other tests.
@MainActor
@Suite(.timeLimit(.minutes(Patience.minutes(10))))
struct ControlEndpointTests {
    @Test func jumpRestoresTheRecordedStepAndLiveReturns() async throws {
        let program = try Program()
        for value in 1...3 { program.count = value }
        let stepOfOne = program.root.store.committedTransactions - 2
        let connection = try await program.connect()
        let hello = try await ask(connection, "hello 1", as: ControlMessages.Hello.self)
        #expect(hello.step == program.root.store.committedTransactions)
        #expect(hello.journal == program.journal)

        let moved = try await ask(connection, "jump \(stepOfOne)", as: ControlMessages.Moved.self)
        #expect(program.count == 1)
        #expect(moved.restored.contains("CountAtom"))
        #expect(moved.skipped.contains { $0.atom == "HandleAtom" && $0.reason.contains("not Codable") })
        let state = try await ask(connection, "state", as: ControlMessages.State.self)
        #expect(state.shows == stepOfOne && state.present == stepOfOne + 2)

        let back = try await ask(connection, "live", as: ControlMessages.Moved.self)
        #expect(program.count == 3)
        #expect(back.step == stepOfOne + 2)
        try program.recorder.close()

        let reader = try JournalReader(path: program.journal)
        #expect(reader.lastStep == back.recorded)
        #expect(try reader.transaction(try #require(moved.recorded)).cause == "restore")
        let count = { (step: Int) throws in try reader.state(at: step).liveAtoms.first { $0.label == "CountAtom" }.flatMap { try? reader.state(at: step).values[$0.id]?.v } }
        #expect(try count(try #require(moved.recorded)) == count(stepOfOne))
        #expect(try count(reader.lastStep) == .number(3))
        #expect(!FileManager.default.fileExists(atPath: program.endpoint.path), "the socket is removed on close")
    }

    @Test func aWriteOfTheProgramEndsTheExcursion() async throws {
        let program = try Program()
        program.count = 1
        program.count = 2
        let connection = try await program.connect()
        _ = try await ask(connection, "jump \(program.root.store.committedTransactions - 1)", as: ControlMessages.Moved.self)
        #expect(program.count == 1)
        program.count = 9
        var ended: ControlConnection.Message?
        _ = await Poll.until(timeout: 10) {
            ended = ended ?? connection.takeEvents().first { $0.name == "excursion-ended" }
            return ended != nil
        }
        let body = try #require(ended).decode(ControlMessages.ExcursionEnded.self)
        #expect(body.cause == "set" && body.step == program.root.store.committedTransactions)
        let state = try await ask(connection, "state", as: ControlMessages.State.self)
        #expect(state.present == nil && state.shows == nil)
        #expect(program.count == 9, "the program's write is applied as usual")
        try program.recorder.close()
    }

    @Test func aReplyComesOnceItsTransactionIsOnFile() async throws {
        // A recorder that writes only when flushed: the endpoint must flush before it answers.
        let program = try Program(flush: .onClose)
        for value in 1...3 { program.count = value }
        let connection = try await program.connect()
        _ = try await ask(connection, "hello 1", as: ControlMessages.Hello.self)
        for _ in 0..<20 {
            let moved = try await ask(connection, "jump \(program.root.store.committedTransactions - 2)", as: ControlMessages.Moved.self)
            // Read at once, the recorder still open: the reply's step is in the file.
            #expect(try JournalReader(path: program.journal).lastStep == moved.recorded)
            let back = try await ask(connection, "live", as: ControlMessages.Moved.self)
            let reader = try JournalReader(path: program.journal)
            #expect(reader.lastStep == back.recorded)
            #expect(try reader.transaction(reader.lastStep).at == "atoms-inspect/live:\(back.step)", "the site says who wrote, not the library's file")
        }
        program.count = 4
        #expect(try JournalReader(path: program.journal).lastStep < program.root.store.committedTransactions)
        let present = try await ask(connection, "live", as: ControlMessages.Moved.self)
        #expect(present.recorded == nil && present.step == program.root.store.committedTransactions)
        #expect(try JournalReader(path: program.journal).lastStep == present.step, "live at the present flushes too")
        try program.recorder.close()
    }

    @Test func setWritesAStateAsOneTransactionOfTheInspectors() async throws {
        let program = try Program()
        program.count = 1
        let connection = try await program.connect()
        _ = try await ask(connection, "hello 1", as: ControlMessages.Hello.self)
        let atom = try #require(try JournalReader(path: program.journal).state(at: program.root.store.committedTransactions).liveAtoms.first { $0.label == "CountAtom" })
        let before = program.root.store.committedTransactions
        let written = try await ask(connection, ControlProtocol.setRequest(.init(atom: atom.identityKey, value: .number(JSONNumber(42)))), as: ControlMessages.Written.self)
        #expect(program.count == 42)
        #expect(written.recorded == before + 1 && written.atom == "CountAtom")
        let reader = try JournalReader(path: program.journal)
        let record = try reader.transaction(written.recorded)
        #expect(record.cause == "inspector" && record.at == "atoms-inspect/set:\(before)", "the cause says atoms-inspect wrote it, not the program")

        // A value of another type is refused, naming the type; nothing is written.
        await #expect {
            _ = try await ask(connection, ControlProtocol.setRequest(.init(atom: atom.identityKey, value: .string("many"))), as: ControlMessages.Written.self)
        } throws: { error in
            (error as? InspectorError)?.status == .dataError && "\(error)".contains("does not decode as Int, the type of CountAtom")
        }
        #expect(program.count == 42 && program.root.store.committedTransactions == written.recorded)

        // Nor in the past, nor an atom the program does not hold.
        _ = try await ask(connection, "jump \(before)", as: ControlMessages.Moved.self)
        await #expect(throws: InspectorError.self) {
            _ = try await ask(connection, ControlProtocol.setRequest(.init(atom: atom.identityKey, value: .number(JSONNumber(7)))), as: ControlMessages.Written.self)
        }
        #expect(program.count == 1)
        _ = try await ask(connection, "live", as: ControlMessages.Moved.self)
        await #expect {
            _ = try await ask(connection, ControlProtocol.setRequest(.init(atom: "Nope.Atom||", value: .null)), as: ControlMessages.Written.self)
        } throws: { error in
            "\(error)".contains("Nope.Atom is not alive in the program")
        }
        #expect(program.count == 42)
        try program.recorder.close()
    }

    @Test func aPeerOfAnotherUserIsRefused() async throws {
        let program = try Program(acceptedUser: getuid() &+ 1)
        let connection = try await program.connect()
        await #expect {
            _ = try await ask(connection, "hello 1", as: ControlMessages.Hello.self)
        } throws: { error in
            "\(error)".contains("only the user running the program") || "\(error)".contains("closed the connection")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: program.endpoint.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try program.recorder.close()
    }

    @Test func malformedAndOversizedRequestsGetAnErrorReply() async throws {
        let program = try Program()
        let connection = try await program.connect()
        for line in ["jump x", "jump -1", "bogus", "\u{1}\u{7f}", "hello 2", String(repeating: "a", count: 5000), "jump 99999999"] {
            await #expect(throws: InspectorError.self, "\(line.prefix(20))") {
                _ = try await ask(connection, line, as: ControlMessages.Moved.self)
            }
        }
        let state = try await ask(connection, "state", as: ControlMessages.State.self)
        #expect(state.step == program.root.store.committedTransactions)
        try program.recorder.close()
    }

    @Test func anInspectorKilledMidCommandLeavesTheProgramRecording() async throws {
        let program = try Program()
        program.count = 1
        let descriptor = try UnixSocket.connect(to: program.endpoint.path)
        #expect(UnixSocket.sendAll(descriptor, Array("jump 1\nstate\n".utf8)))
        close(descriptor)
        for value in 2...20 {
            program.count = value
            await Task.yield()
        }
        // Another client is served.
        let connection = try await program.connect()
        let state = try await ask(connection, "state", as: ControlMessages.State.self)
        #expect(state.step == program.root.store.committedTransactions)
        try program.recorder.close()
        #expect(try JournalReader(path: program.journal).lastStep == state.step)
    }

    @Test func aFollowerThatFallsBehindIsToldWhatItMissed() async throws {
        let program = try Program(queueLimit: 4096)
        let descriptor = try UnixSocket.connect(to: program.endpoint.path)
        defer { close(descriptor) }
        #expect(UnixSocket.sendAll(descriptor, Array("follow\n".utf8)))
        let following = await rawReplies(descriptor, until: "ok follow")
        #expect(following.hasPrefix("ok follow"))
        // Never read while the program records far more than the socket and the queue hold.
        let big = String(repeating: "x", count: 2048)
        let bigAtom = TextAtom()
        program.context.watch(bigAtom)
        for index in 0..<600 {
            program.context[bigAtom] = "\(index)" + big
            if index % 50 == 0 {
                try program.recorder.flush()
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(program.context.read(bigAtom).hasPrefix("599"), "recording went on")
        try program.recorder.flush()
        let text = await rawReplies(descriptor, until: "event missed")
        #expect(text.contains("event missed {\"lines\":"))
        try program.recorder.close()
        #expect(try JournalReader(path: program.journal).lastStep == program.root.store.committedTransactions)
    }

    /// Jumps of the test below. Each jump now waits until the recorder wrote every transaction
    /// the writer made before it (the reply names a step on file), so a jump costs the recorder's
    /// time for the writer's burst: 200 (a thousand took five minutes), 50 under ThreadSanitizer
    /// (`.ci/tsan-tests.sh` sets `ATOMS_MODEL_SEEDS`).
    nonisolated static let jumpCount = ProcessInfo.processInfo.environment["ATOMS_MODEL_SEEDS"] == nil ? 200 : 50

    @Test func manyJumpsWhileTheProgramWritesLoseNothing() async throws {
        let program = try Program()
        let first = program.root.store.committedTransactions
        program.count = 1
        let connection = try await program.connect()
        let hello = try await ask(connection, "hello 1", as: ControlMessages.Hello.self)
        // The program writes between jumps; each write's step and value are kept.
        var written: [Int: Int] = [:]
        let writer = Task { @MainActor in
            var value = 100
            while !Task.isCancelled {
                value += 1
                program.count = value
                written[program.root.store.committedTransactions] = value
                await Task.yield()
            }
        }
        let jumps = try await OwnThread.run { () throws -> [Jump] in
            var generator = SeededGenerator(state: 32)
            var known = hello.step
            var jumps: [Jump] = []
            for _ in 0..<Self.jumpCount {
                let step = Int.random(in: first...known, using: &generator)
                let moved = try connection.request("jump \(step)", timeout: Patience.seconds(replyTimeout)).decode(ControlMessages.Moved.self)
                if let recorded = moved.recorded { known = max(known, recorded) }
                jumps.append(Jump(step: step, recorded: moved.recorded))
            }
            return jumps
        }
        writer.cancel()
        _ = await writer.value
        try program.recorder.close()

        let reader = try JournalReader(path: program.journal)
        #expect(reader.lastStep == program.root.store.committedTransactions, "no transaction lost")
        // Replay once, step by step: the state at every step is known.
        var counts: [Int: JSONValue] = [:]
        var state = try reader.state(at: reader.firstStep)
        for step in reader.firstStep...reader.lastStep {
            state = try reader.advance(state, to: step)
            if let atom = state.liveAtoms.first(where: { $0.label == "CountAtom" }), let value = state.values[atom.id]?.v {
                counts[step] = value
            }
        }
        for (step, value) in written {
            #expect(counts[step] == .number(JSONNumber(value)), "the program's write at step \(step)")
        }
        for jump in jumps {
            if let recorded = jump.recorded {
                #expect(counts[recorded] == counts[jump.step], "jump to \(jump.step), recorded at \(recorded)")
            }
        }
        #expect(jumps.count == Self.jumpCount)
    }
}

/// A large value, to fill a slow follower's queue.
private struct TextAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}
