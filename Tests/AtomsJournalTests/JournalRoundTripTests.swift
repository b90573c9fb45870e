import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

@MainActor
struct JournalRoundTripTests {
    @Test func everyStepReadsBackAsTheLiveSnapshotShowedIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("session.jsonl")
        let session = ScriptedSession(seed: 7)
        let recorder = try JournalRecorder(path: path, keyframeInterval: 16)
        recorder.attach(to: session.root.store)
        session.captureSnapshots()
        session.run(operations: 400)
        try recorder.close()

        let journal = try JournalReader(path: path)
        #expect(journal.warnings.isEmpty)
        #expect(journal.firstStep == 0)
        #expect(journal.lastStep == session.root.store.committedTransactions)
        #expect(journal.lastStep > 300, "a few hundred transactions")
        let keyframeSteps = try journal.keyframeSteps
        #expect(zip(keyframeSteps, keyframeSteps.dropFirst()).allSatisfy { $1 - $0 >= 16 }, "at least the interval apart")
        #expect(keyframeSteps.count > 1)

        let encoder = ValueEncoder()
        var state = try journal.state(at: journal.firstStep)
        var sawFamily = false
        var sawRelease = false
        for step in journal.firstStep...journal.lastStep {
            state = try journal.advance(state, to: step)
            let live = try #require(session.liveSnapshots[step])
            #expect(state.graphDescription() == live.graphDescription(), "graph at step \(step)")
            let liveAtoms = live.atoms
            #expect(state.liveAtoms.map(\.displayName).sorted() == liveAtoms.map(\.description).sorted(), "atoms at step \(step)")
            for atom in liveAtoms {
                let recorded = try #require(state.liveAtoms.first { $0.displayName == atom.description })
                let entry = try #require(state.values[recorded.id])
                let expected = encoder.encode(live.value(of: atom) as Any, redacted: atom.atomType is any JournalRedacted.Type).keyedEntry(id: recorded.id)
                let decoded = try JSONDecoder().decode(ValueEntry.self, from: Data(expected.utf8))
                #expect(entry == decoded, "value of \(atom) at step \(step)")
            }
            sawFamily = sawFamily || liveAtoms.filter { $0.label == "SlotAtom" }.count > 1
            if step > journal.firstStep, !(try journal.transaction(step).released ?? []).isEmpty {
                sawRelease = true
            }
            // Random access gives the same state as stepping forward.
            if step % 37 == 0 {
                #expect(try journal.state(at: step) == state)
            }
        }
        #expect(sawFamily)
        #expect(sawRelease)
    }

    @Test func keyframeAtAttachHoldsAnExistingState() throws {
        let root = AtomRoot()
        let context = root.viewContext(fileID: "App/Early.swift", line: 1)
        context.watch(SummaryAtom())
        context[CountAtom()] = 5
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink)
        recorder.attach(to: root.store)
        context[CountAtom()] = 6

        let directory = try TemporaryDirectory()
        try recorder.flush()
        let journal = try JournalReader(path: try directory.write("early.jsonl", sink.text))
        #expect(journal.firstStep == 2)
        #expect(journal.lastStep == 3)
        let before = try journal.state(at: 2)
        #expect(before.graphDescription().contains("\"SummaryAtom\" -> \"App/Early.swift\" [label=\"line:1\"]"))
        let after = try journal.state(at: 3)
        let count = try #require(after.liveAtoms.first { $0.label == "CountAtom" })
        #expect(after.values[count.id]?.v == .number(6))
    }

    @Test func nonCodableValuesAreDumpedAndMarkedNotRestorable() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(OpaqueAtom())
        let directory = try TemporaryDirectory()
        try recorder.flush()
        let journal = try JournalReader(path: try directory.write("opaque.jsonl", sink.text))
        let state = try journal.state(at: journal.lastStep)
        let opaque = try #require(state.liveAtoms.first { $0.label == "OpaqueAtom" })
        let entry = try #require(state.values[opaque.id])
        #expect(!entry.isRestorable)
        #expect(entry.dump == "Opaque(count: 0)")
    }

    @Test func changedMembersAreRecordedAsDeltasAndReadBackWhole() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        var expected = [context.watch(ProfileAtom())]
        context[ProfileAtom()].age += 1
        expected.append(context.read(ProfileAtom()))
        context[ProfileAtom()].bio = nil
        expected.append(context.read(ProfileAtom()))
        context[ProfileAtom()] = Profile(name: "Grace Hopper", bio: "COBOL", age: 85)
        expected.append(context.read(ProfileAtom()))

        try recorder.flush()
        let transactions = sink.lines.filter { $0.hasPrefix("[") }
        #expect(transactions.count == 4)
        #expect(transactions[1].contains(#"[1,"d",["o",{"age":37}]]"#), "only the changed member")
        #expect(transactions[2].contains(#"[1,"d",["o",{},{},["bio"]]]"#), "a removed member")
        #expect(transactions[3].contains(#"[1,"v",{"name":"Grace Hopper","bio":"COBOL","age":85}]"#), "whole when shorter")

        let directory = try TemporaryDirectory()
        let journal = try JournalReader(path: try directory.write("profile.jsonl", sink.text))
        for (offset, profile) in expected.enumerated() {
            let state = try journal.state(at: journal.firstStep + 1 + offset)
            let entry = try #require(state.values[1])
            #expect(entry.patch == nil && entry.delta == nil && entry.isRestorable)
            let data = try JSONEncoder().encode(try #require(entry.v))
            #expect(try JSONDecoder().decode(Profile.self, from: data) == profile, "step \(offset + 1)")
        }
    }

    @Test func aClassInstanceIsRecordedAsItWasAtCommit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("objects.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CounterObjectAtom())
        for count in 1...200 {
            context.set(Counter(count: count), for: CounterObjectAtom())
            // Changed in place right after the commit: only an encoding at commit sees `count`.
            context.read(CounterObjectAtom()).count = -1
        }
        try recorder.close()

        let journal = try JournalReader(path: path)
        for count in 1...200 {
            let state = try journal.state(at: journal.firstStep + 1 + count)
            #expect(state.values[1]?.v == .object(["count": .number(JSONNumber(count))]), "step \(count)")
        }
    }
}
