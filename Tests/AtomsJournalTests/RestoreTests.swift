import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

@MainActor
struct RestoreTests {
    /// Records a scripted session and returns the journal, with the session's live snapshots.
    private func recordSession(in directory: TemporaryDirectory) throws -> (JournalReader, ScriptedSession) {
        let path = directory.path("session.jsonl")
        let session = ScriptedSession(seed: 11)
        let recorder = try JournalRecorder(path: path, keyframeInterval: 32)
        recorder.attach(to: session.root.store)
        session.captureSnapshots()
        session.run(operations: 250)
        try recorder.close()
        return (try JournalReader(path: path), session)
    }

    /// The JSON the live store showed for a Codable atom at a step.
    private func liveJSON<Node: Atom>(_ atom: Node, in snapshot: Snapshot) -> JSONValue? where Node.Produced: Encodable {
        guard let value = snapshot.lookup(atom), let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    private func json<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    @Test func aProgramStartedFromTheStateFileShowsTheRecordedValues() throws {
        let directory = try TemporaryDirectory()
        let (journal, session) = try recordSession(in: directory)
        // Steps at which the session's atoms are live (its last transactions release them).
        let steps = [journal.lastStep / 3, journal.lastStep / 2, journal.lastStep - 6]
        for step in steps {
            let state = try journal.state(at: step)
            let statePath = directory.path("state-\(step).json")
            try StateFile(state: state, journal: journal.path).write(to: statePath)
            let live = try #require(session.liveSnapshots[step])
            try #require(live.lookup(CountAtom()) != nil, "step \(step) has live atoms")

            // A "new process": a fresh store seeded from the file.
            let store = AtomStore()
            let (seeds, skipped) = try store.loadState(from: statePath)
            let context = AtomRoot(storesIn: store).viewContext()
            #expect(try json(context.watch(CountAtom())) == liveJSON(CountAtom(), in: live))
            #expect(try json(context.watch(NotesAtom())) == liveJSON(NotesAtom(), in: live))
            #expect(try json(context.watch(ShowDoneAtom())) == liveJSON(ShowDoneAtom(), in: live))
            #expect(try json(context.watch(VisibleNotesAtom())) == liveJSON(VisibleNotesAtom(), in: live))
            #expect(try json(context.watch(SummaryAtom())) == liveJSON(SummaryAtom(), in: live))
            for slot in 0..<4 where live.lookup(SlotAtom(slot: slot)) != nil {
                #expect(context.watch(SlotAtom(slot: slot)) == live.lookup(SlotAtom(slot: slot)))
            }
            #expect(seeds.failures.isEmpty)
            #expect(skipped.contains { $0.atom == "SecretAtom" && $0.reason.hasPrefix("redacted") })
            #expect(context.watch(SecretAtom()) == "hunter2", "a redacted atom starts from its default")
            // Restored state is live: derived atoms follow later changes.
            context[ShowDoneAtom()].toggle()
            let notes = context.read(NotesAtom())
            #expect(context.read(VisibleNotesAtom()) == (context.read(ShowDoneAtom()) ? notes : notes.filter { !$0.done }))
        }
    }

    @Test func stateFileListsWhatCouldNotBeIncluded() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(OpaqueAtom())
        context.watch(SecretAtom())
        let directory = try TemporaryDirectory()
        try recorder.flush()
        let journal = try JournalReader(path: try directory.write("j.jsonl", sink.text))
        let file = StateFile(state: try journal.state(at: journal.lastStep), journal: "j.jsonl")
        #expect(file.atoms.map(\.label) == ["CountAtom"])
        #expect(file.skipped.map(\.atom) == ["OpaqueAtom", "SecretAtom"])
        #expect(file.skipped.first?.reason == "not restorable: its value is not Codable")
    }

    @Test func aLiveStoreIsRestoredToAStep() throws {
        let directory = try TemporaryDirectory()
        let (journal, session) = try recordSession(in: directory)
        let step = journal.lastStep / 2
        let live = try #require(session.liveSnapshots[step])
        var updates = 0
        let watcher = session.root.viewContext { updates += 1 }
        watcher.watch(NotesAtom())
        watcher.watch(CountAtom())
        watcher[CountAtom()] = -1
        updates = 0

        // Cached atoms take their recorded values now; others when first used.
        try session.root.store.restore(from: journal, step: step)
        #expect(updates == 1)
        #expect(watcher.read(CountAtom()) == live.lookup(CountAtom()))
        #expect(watcher.read(NotesAtom()) == live.lookup(NotesAtom()))
        #expect(watcher.watch(ShowDoneAtom()) == live.lookup(ShowDoneAtom()))
        #expect(watcher.watch(VisibleNotesAtom()) == live.lookup(VisibleNotesAtom()))
    }

    @Test func malformedStateFilesAreRejectedClearly() throws {
        let directory = try TemporaryDirectory()
        let notJSON = try directory.write("bad.json", "nope")
        #expect(throws: JournalError.self) { try StateFile.read(path: notJSON) }
        let wrongFormat = try directory.write("other.json", #"{"format":"other","version":1,"step":0,"atoms":[],"skipped":[]}"#)
        do {
            _ = try StateFile.read(path: wrongFormat)
        } catch {
            #expect(error.description.contains("format is \"other\""))
        }
        #expect(throws: JournalError.cannotRead(path: directory.path("missing.json"), reason: "no such file")) {
            try StateFile.read(path: directory.path("missing.json"))
        }
    }
}
