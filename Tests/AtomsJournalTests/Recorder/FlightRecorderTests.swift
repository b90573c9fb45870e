import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The flight recorder: the last bytes of journal in memory, written as a journal only when
/// asked (a call, or a signal).
@MainActor
struct FlightRecorderTests {
    /// A flight recorder of `capacity` bytes, attached to a new root whose context watches
    /// `CountAtom` (the root is kept: its store keeps the recorder recording).
    @MainActor
    private struct Session {
        let root = AtomRoot()
        let recorder: JournalRecorder
        let context: AtomViewContext

        init(capacity: Int, timed: Bool = false, program: String = "flight-test") throws {
            recorder = try JournalRecorder(flightRecorder: capacity, keyframeInterval: 64, program: program)
            recorder.recordsTiming = timed
            recorder.attach(to: root.store)
            context = root.viewContext()
            context.watch(CountAtom())
        }

        func increment(_ times: Int) {
            for _ in 0..<times {
                context[CountAtom()] += 1
            }
        }

        /// Increments in rounds, letting the main actor's other work (other tests) run between.
        func increment(_ times: Int, yieldingEvery round: Int) async {
            var left = times
            while left > 0 {
                increment(min(round, left))
                left -= round
                await Task.yield()
            }
        }
    }

    /// The value of `CountAtom` in a state.
    private func count(in state: JournalState) throws -> JSONValue? {
        let atom = try #require(state.liveAtoms.first { $0.label == "CountAtom" })
        return state.values[atom.id]?.v
    }

    /// Walks every step of a journal through the shared reader, from its first keyframe,
    /// checking that `CountAtom` is one less than the step at each (step 1 made it; every
    /// transaction since added one).
    private func expectEveryStepCounts(_ journal: JournalReader) throws {
        var state = try journal.state(at: journal.firstStep)
        #expect(try count(in: state) == .number(JSONNumber(journal.firstStep - 1)))
        for seq in (journal.firstStep + 1)...journal.lastStep {
            try journal.apply(seq, to: &state, decodingValuesOf: nil)
            guard try count(in: state) == .number(JSONNumber(seq - 1)) else {
                Issue.record("step \(seq) reads \(String(describing: try count(in: state)))")
                return
            }
        }
        #expect(try journal.state(at: journal.lastStep) == state, "seeking to the last step reads what walking did")
    }

    @Test func aMillionTransactionsLeaveTheLastOnesOpeningAtAKeyframe() async throws {
        let directory = try TemporaryDirectory()
        let capacity = 64 << 10
        let session = try Session(capacity: capacity)
        let recorder = session.recorder
        // A tenth under ThreadSanitizer (.ci/tsan-tests.sh sets ATOMS_MODEL_SEEDS): the ring still
        // wraps over a thousand times, and every access costs ten times as much there.
        let transactions = ProcessInfo.processInfo.environment["ATOMS_MODEL_SEEDS"] == nil ? 1_000_000 : 100_000
        await session.increment(transactions, yieldingEvery: 10_000)
        let last = transactions + 1  // after the transaction watching the atom
        let path = directory.path("dump.jsonl")
        let steps = try recorder.dump(to: path)
        try recorder.close()

        let journal = try JournalReader(path: path)
        #expect(journal.warnings.isEmpty)
        #expect(!journal.isBounded && journal.isEnded)
        #expect(journal.lastStep == last, "the last committed transaction is the dump's last step")
        #expect(steps == journal.firstStep...journal.lastStep)
        #expect(journal.firstStep > 0 && journal.header.startStep == 0 && journal.droppedTransactions == journal.firstStep)
        #expect(journal.header.limit == capacity && journal.header.segment == nil)
        #expect(try journal.keyframeSteps.first == journal.firstStep, "the dump opens at a keyframe")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines[1].hasPrefix(#"{"type":"keyframe","seq":\#(journal.firstStep),"#))
        #expect(lines.last?.hasPrefix(#"{"type":"end","seq":\#(last),"t":"#) == true)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size <= capacity + SegmentWriter.segmentSize(forLimit: capacity) + 512)
        #expect(journal.transactionCount > 500, "about 64 KB of transactions: \(journal.transactionCount)")
        try expectEveryStepCounts(journal)
    }

    @Test func dumpsTwiceWhileRecordingGoesOnThenOnceClosed() throws {
        let directory = try TemporaryDirectory()
        let session = try Session(capacity: 16 << 10, timed: true)
        let recorder = session.recorder
        session.increment(3_000)
        try recorder.dump(to: directory.path("first.jsonl"))
        session.increment(3_000)
        try recorder.dump(to: directory.path("second.jsonl"))
        session.increment(10)
        try recorder.close()
        try recorder.dump(to: directory.path("closed.jsonl"))

        let first = try JournalReader(path: directory.path("first.jsonl"))
        let second = try JournalReader(path: directory.path("second.jsonl"))
        let closed = try JournalReader(path: directory.path("closed.jsonl"))
        #expect(first.lastStep == 3_001 && second.lastStep == 6_001 && closed.lastStep == 6_011)
        #expect(first.isEnded && second.isEnded && closed.isEnded)
        #expect(second.firstStep > first.lastStep, "16 KB holds fewer than 3,000 transactions")
        for journal in [first, second, closed] {
            #expect(journal.warnings.isEmpty)
            #expect(journal.header.minor == JournalFormat.minorVersion, "timed: the timing lines' minor version")
            try expectEveryStepCounts(journal)
            // The last transaction's timing line is there: a dump flushes the one waiting.
            #expect(try journal.timing(of: journal.lastStep) != nil)
        }
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: directory.path("first.jsonl"))[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func aSignalWritesNumberedDumpsIntoTheFolder() async throws {
        let directory = try TemporaryDirectory()
        let session = try Session(capacity: 16 << 10, program: "flight signal/test")
        let recorder = session.recorder
        try recorder.dumpOnSignal(SIGUSR1, into: directory.url.path)
        session.increment(500)
        let name = "flight-signal-test.\(getpid())"
        for number in 1...2 {
            kill(getpid(), SIGUSR1)
            let path = directory.path("\(name).\(number).jsonl")
            let deadline = Patience.date(after: 60)
            while !FileManager.default.fileExists(atPath: path), Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))  // the main actor is free meanwhile
            }
            let journal = try JournalReader(path: path)
            #expect(journal.lastStep == 500 + number, "dump \(number) holds every transaction committed before its signal")
            #expect(journal.isEnded && journal.warnings.isEmpty)
            session.increment(1)
        }
        try recorder.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["\(name).1.jsonl", "\(name).2.jsonl"])
    }

    @Test func memoryStaysWithinTheCapacityPlusASegment() throws {
        let capacity = 16 << 10
        let segment = SegmentWriter.segmentSize(forLimit: capacity)
        // What the sink holds after each change, as it tells its observer.
        let memory = Locked(FlightRecorderSink.Memory(held: 0, allocated: 0))
        let sink = try FlightRecorderSink(capacity: capacity) { now in memory.withLock { $0 = now } }
        let root = AtomRoot()
        let recorder = JournalRecorder(sink: sink, file: nil, flightRecorder: sink, keyframeInterval: 64, redacting: [], program: "flight-test")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CountAtom())
        var allocated: [Int] = []
        for round in 0..<40 {
            for _ in 0..<1_000 { context[CountAtom()] += 1 }
            try recorder.flush()
            let now = memory.withLock { $0 }
            #expect(now.held > 0 && now.held <= capacity + segment + 256, "round \(round): \(now.held) bytes held")
            allocated.append(now.allocated)
        }
        try recorder.close()
        #expect(allocated.max()! <= capacity + 2 * segment, "buffers: \(allocated.max()!) bytes")
        // Once the first segments are dropped, their buffers are reused: memory does not grow.
        #expect(allocated[20...].max()! <= allocated[..<20].max()!, "\(allocated)")
    }

    @Test func aDumpBeforeAnyTransactionIsTheKeyframeAlone() throws {
        let directory = try TemporaryDirectory()
        let root = AtomRoot()
        let recorder = try JournalRecorder(flightRecorder: 4 << 10)
        recorder.attach(to: root.store)
        #expect(try recorder.dump(to: directory.path("empty.jsonl")) == 0...0)
        try recorder.close()
        let journal = try JournalReader(path: directory.path("empty.jsonl"))
        #expect(journal.firstStep == 0 && journal.lastStep == 0 && journal.isEnded && journal.droppedTransactions == 0)
    }

    @Test func sizesAndTargetsThatCannotWorkAreRefusedWithAMessage() throws {
        #expect(throws: JournalError.cannotCreate(path: "flight recorder", reason: "a flight recorder of 1000 bytes is below the smallest, 4096 bytes")) {
            try JournalRecorder(flightRecorder: 1_000)
        }
        let directory = try TemporaryDirectory()
        let early = try JournalRecorder(flightRecorder: 4 << 10)
        #expect(throws: JournalError.self) { try early.dump(to: directory.path("early.jsonl")) }
        let file = try JournalRecorder(path: directory.path("file.jsonl"))
        #expect { try file.dump(to: directory.path("dump.jsonl")) } throws: { error in
            "\(error)".contains("only a flight recorder (JournalRecorder(flightRecorder:)) writes dumps")
        }
        try file.close()

        let session = try Session(capacity: 8 << 10)
        let recorder = session.recorder
        session.increment(1)
        let missing = directory.path("missing/dump.jsonl")
        #expect(throws: JournalError.self) { try recorder.dump(to: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect { try recorder.dumpOnSignal(into: directory.path("missing")) } throws: { error in
            "\(error)" == "\(directory.path("missing")): cannot create: no such file or directory — check that the directory exists and is writable"
        }
        #expect(throws: JournalError.self) { try recorder.dumpOnSignal(into: directory.path("file.jsonl")) }
        #expect(throws: JournalError.self) { try recorder.dumpOnSignal(SIGKILL, into: directory.url.path) }
        try recorder.close()
    }
}
