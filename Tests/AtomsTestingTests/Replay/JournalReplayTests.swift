import Atoms
import AtomsInspector
@testable import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsTesting

/// A recorded todo session replayed against today's atoms: the same atoms pass, a stats atom
/// that miscounts fails at the first toggle, and bad input fails by name.
@MainActor
struct JournalReplayTests {
    /// Records the todo session into `path`; returns the write site of the toggles.
    @discardableResult
    static func recordSession(to path: String) -> String {
        let context = AtomTestContext(journal: .path(path))
        let toggleSite = play(in: context, todos: 4)
        (context.recording as? JournalRecording)?.finish(testFailed: false)
        return toggleSite
    }

    /// The session: todos added, a note written, todos toggled, the filter changed and
    /// reset, a todo removed. Returns the toggles' write site.
    @discardableResult
    static func play(in context: AtomTestContext, todos: Int, toggles: Int = 2) -> String {
        context.watch(FilteredTodosAtom())
        context.watch(StatsAtom())
        for id in 1...todos {
            context[TodosAtom()].append(ReplayTodo(id: id, text: "Todo number \(id)", isCompleted: false))
        }
        context.watch(NoteLengthAtom(id: 2))
        context[NoteAtom(id: 2)] = "call Ada"
        var toggleLine: UInt = 0
        for round in 0..<toggles {
            let index = (round * 7 + 2) % todos
            toggleLine = #line; context[TodosAtom()][index].isCompleted.toggle()
        }
        context[FilterAtom()] = .completed
        context[NoteAtom(id: 2)] = "call Ada at noon"
        context.reset(FilterAtom())
        context[TodosAtom()].remove(at: 0)
        return "AtomsTestingTests/JournalReplayTests.swift:\(toggleLine)"
    }

    /// The replay every test runs: two driven atoms and a driven family, two checked atoms
    /// and a checked family.
    static func replay(_ path: String) throws -> JournalReplay {
        let replay = try JournalReplay(journal: path)
        replay.drive(TodosAtom())
        replay.drive(FilterAtom())
        replay.drive(NoteAtom.self) { key in Int(key).map(NoteAtom.init(id:)) }
        replay.check(StatsAtom())
        replay.check(FilteredTodosAtom())
        replay.check(NoteLengthAtom.self) { key in Int(key).map(NoteLengthAtom.init(id:)) }
        return replay
    }

    @Test func theSameAtomsReplayTheSessionWithoutAFailure() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        Self.recordSession(to: path)
        try Self.replay(path).run(in: AtomTestContext())
    }

    @Test func aStatsAtomThatMiscountsFailsAtTheFirstToggleNamingTheAtomStepAndWriteSite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        let toggleSite = Self.recordSession(to: path)
        let recorded = try InspectedJournal(path: path)
        let toggles = try (1...recorded.reader.lastStep).filter { try recorded.transaction($0, decodingValuesOf: []).at == toggleSite }
        #expect(toggles.count == 2)

        let context = AtomTestContext()
        context.override(CompletedCountingAtom()) { _ in .miscounting }
        let failure = try #require(throws: JournalReplayFailure.self) { try Self.replay(path).run(in: context) }
        // The first toggle completes one todo, which the bug still counts; the second is the first it miscounts.
        #expect(failure.step == toggles[1])
        #expect(failure.atom == "StatsAtom")
        #expect(failure.cause == "set")
        #expect(failure.writeSite == toggleSite)
        #expect(failure.diff?.contains("-   \"totalCompleted\": 2") == true, "\(failure.diff ?? "")")
        #expect(failure.diff?.contains("+   \"totalCompleted\": 1") == true, "\(failure.diff ?? "")")
        #expect(failure.description.hasPrefix("replay of \(path) failed at step \(toggles[1]) (set at \(toggleSite)): StatsAtom — today's value differs from the recorded one"))

        // The replay's journal diverges from the recording at that step, on that atom.
        let replayed = try #require(failure.replayedJournal)
        defer { try? FileManager.default.removeItem(atPath: replayed) }
        #expect(failure.description.contains("atoms-inspect compare \(path) \(replayed)"))
        let comparison = try CompareCommand.compare(recorded, InspectedJournal(path: replayed))
        #expect(comparison.step == toggles[1])
        #expect(comparison.matchingTransactions == toggles[1] - 1)
        #expect(comparison.differences.map(\.kind) == ["value"])
        #expect(comparison.differences.first?.atom == "StatsAtom")
    }

    /// The checked atoms' deltas are compared with today's by their bytes first: a journal
    /// whose deltas are spelled otherwise (spaces after their commas and colons) replays as the
    /// recorded one does, passing with today's atoms and failing where they miscount.
    @Test func deltasSpelledOtherwiseAreComparedAsJSON() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        Self.recordSession(to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let spaced = text.replacingOccurrences(of: ",\"d\",[\"o\",{", with: ",\"d\",[\"o\", {")
            .replacingOccurrences(of: "\"totalCompleted\":", with: "\"totalCompleted\" : ")
        #expect(spaced != text)
        let respelled = directory.path("respelled.jsonl")
        try spaced.write(toFile: respelled, atomically: true, encoding: .utf8)
        try Self.replay(respelled).run(in: AtomTestContext())

        let context = AtomTestContext()
        context.override(CompletedCountingAtom()) { _ in .miscounting }
        let original = try #require(throws: JournalReplayFailure.self) { try Self.replay(path).run(in: context) }
        let other = AtomTestContext()
        other.override(CompletedCountingAtom()) { _ in .miscounting }
        let failure = try #require(throws: JournalReplayFailure.self) { try Self.replay(respelled).run(in: other) }
        #expect(failure.step == original.step)
        #expect(failure.atom == "StatsAtom")
        if let replayed = failure.replayedJournal { try? FileManager.default.removeItem(atPath: replayed) }
        if let replayed = original.replayedJournal { try? FileManager.default.removeItem(atPath: replayed) }
    }

    @Test func aValueTheInspectorWroteIsDrivenAsTheProgramsOwnSetIs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        let context = AtomTestContext(journal: .path(path))
        Self.play(in: context, todos: 4)
        // What the control endpoint's `set` does when atoms-inspect sets the filter.
        let store = context.atomStore
        let filter = try #require(store.snapshot().atoms.first { $0.atomType == FilterAtom.self })
        #expect(store.write(filter, from: RecordedValueSeeds(values: [RecordedValueSeeds.key(of: filter): .string("completed")]), fileID: ControlWriteSite.fileID(.set), line: 40) == .written)
        (context.recording as? JournalRecording)?.finish(testFailed: false)
        let recorded = try InspectedJournal(path: path)
        let written = try recorded.transaction(recorded.reader.lastStep, decodingValuesOf: [])
        #expect(written.cause == "inspector")
        let origin = try #require(written.origin)
        #expect(try recorded.reader.state(at: recorded.reader.lastStep).declarations[origin]?.label == "FilterAtom")

        // Not driven, the filter would stay `all` and the checked FilteredTodosAtom differ.
        try Self.replay(path).run(in: AtomTestContext())
    }

    @Test func aFlightRecorderDumpThatStartsMidSessionReplaysFromItsKeyframe() throws {
        let directory = try TemporaryDirectory()
        let context = AtomTestContext()
        let recorder = try JournalRecorder(flightRecorder: 16 << 10, keyframeInterval: 16, program: "replay-test")
        recorder.attach(to: context.atomStore)
        Self.play(in: context, todos: 60, toggles: 40)
        let dump = directory.path("dump.jsonl")
        try recorder.dump(to: dump)
        try recorder.close()
        let reader = try JournalReader(path: dump)
        #expect(reader.firstStep > 0, "the dump starts mid-session")
        let start = try reader.state(at: reader.firstStep)
        #expect(start.liveAtoms.contains { $0.label == "TodosAtom" })

        try Self.replay(dump).run(in: AtomTestContext())

        let miscounting = AtomTestContext()
        miscounting.override(CompletedCountingAtom()) { _ in .miscounting }
        let failure = try #require(throws: JournalReplayFailure.self) { try Self.replay(dump).run(in: miscounting) }
        #expect(failure.atom == "StatsAtom")
        // The first step of the dump whose recorded stats count two completed todos.
        var state = start
        var expected: Int?
        let stats = try #require(start.liveAtoms.first { $0.label == "StatsAtom" }).id
        for step in reader.firstStep...reader.lastStep {
            if step > reader.firstStep { try reader.apply(step, to: &state, decodingValuesOf: nil) }
            if case .object(let members)? = state.values[stats]?.v, !["0", "1"].contains(members["totalCompleted"]?.jsonText) {
                expected = step
                break
            }
        }
        #expect(failure.step == expected)
        if let replayed = failure.replayedJournal { try? FileManager.default.removeItem(atPath: replayed) }
    }
}
