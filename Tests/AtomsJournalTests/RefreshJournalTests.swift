import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

private struct GatedLoadAtom: AsyncPhaseAtom, Hashable {
    func value(context: Context) async -> Int {
        await Gates.named("RefreshJournalTests").pass()
    }
}

@MainActor
struct RefreshJournalTests {
    @Test func aCancelledRefreshWritesNoValueAndACompletedOneDoes() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("refresh.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()

        let gate = Gates.make("RefreshJournalTests")
        #expect(context.watch(GatedLoadAtom()) == .suspending)
        #expect(await gate.waitForArrivals(1))

        // Cancelled while it waits: nothing is committed.
        let cancelled = Task { await context.refresh(GatedLoadAtom()) }
        #expect(await gate.waitForArrivals(2))
        cancelled.cancel()
        #expect(await cancelled.value == .suspending)

        // Completed: one refresh transaction with the new value.
        gate.open()
        #expect(await context.refresh(GatedLoadAtom()) == .success(3))
        try recorder.close()

        let journal = try JournalReader(path: path)
        var refreshes: [TransactionRecord] = []
        for step in (journal.firstStep + 1)...journal.lastStep {
            let record = try journal.transaction(step)
            if record.cause == "refresh" {
                refreshes.append(record)
            }
        }
        #expect(refreshes.count == 1)
        let state = try journal.state(at: journal.lastStep)
        let atom = try #require(state.liveAtoms.first { $0.displayName.hasPrefix("GatedLoadAtom") })
        let values = try #require(refreshes.first?.values)
        #expect(values.map(\.id) == [atom.id], "the refresh wrote the atom's value")
    }
}
