import Atoms
import AtomsJournal
import AtomsTesting
import Foundation
import Testing

/// A todo session recorded, then replayed: against the same atoms it passes; against a stats
/// atom that miscounts it fails on purpose, at the second toggle. Journals go to the folder
/// `FIXTURE_REPLAY_JOURNALS` names.
@Suite(.atomJournal(.retainOnFailure(in: TodoSession.folder + "/swift-testing")))
@MainActor
struct ReplayTests {
    @Test func replaysAgainstTheSameAtoms() throws {
        let recorded = try TodoSession.record(to: TodoSession.folder + "/swift-testing/same.recorded.jsonl")
        try TodoSession.replay(recorded).run(in: AtomTestContext())
    }

    @Test func replayAgainstAMiscountingStatsAtomFailsOnPurpose() throws {
        let recorded = try TodoSession.record(to: TodoSession.folder + "/swift-testing/miscount.recorded.jsonl")
        let context = AtomTestContext()
        context.override(CompletedCountingAtom()) { _ in .miscounting }
        try TodoSession.replay(recorded).run(in: context)
    }
}

/// The session both test frameworks record and replay.
enum TodoSession {
    static var folder: String {
        ProcessInfo.processInfo.environment["FIXTURE_REPLAY_JOURNALS"] ?? NSTemporaryDirectory() + "/replay-journals"
    }

    /// Records four todos added and three toggled into `path`, as an app records a session.
    @MainActor
    static func record(to path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "journal-fixture")
        recorder.attach(to: root.store)
        let list = root.viewContext()
        list.watch(StatsAtom())
        for id in 1...4 {
            list[TodosAtom()].append(Todo(id: id, text: "Todo \(id)", isCompleted: false))
        }
        for index in [0, 2, 3] {
            list[TodosAtom()][index].isCompleted.toggle()  // the toggle
        }
        try recorder.close()
        withExtendedLifetime(list) {}
        return path
    }

    @MainActor
    static func replay(_ path: String) throws -> JournalReplay {
        let replay = try JournalReplay(journal: path)
        replay.drive(TodosAtom())
        replay.check(StatsAtom())
        return replay
    }
}
