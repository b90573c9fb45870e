import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Members of one family: the same label, told apart by their keys only.
private struct RestoredMemberAtom: StateAtom, Hashable {
    let id: Int
    var key: Int { id }
    func defaultValue(context: Context) -> Int { id }
}

/// Written while the family is away.
private struct RestoredFillerAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Watches every member.
private struct RestoredTotalAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        (0..<24).reduce(0) { $0 + context.watch(RestoredMemberAtom(id: $1)) }
    }
}

@MainActor
struct RestoreOrderTests {
    /// A session whose restore re-creates a family's members and their edges, recorded; the
    /// journal's lines with their times left out.
    private func recordedRestore() throws -> [String] {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: 4)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(RestoredFillerAtom())
        context.watch(RestoredTotalAtom())
        let before = context.snapshot()
        context.unwatch(RestoredTotalAtom())
        // Past a keyframe, which forgets the released members: the restore declares them
        // again, numbered in the order it re-creates them. A keyframe follows once the lines
        // weigh twice the last one, which depends on their times' digits: about 40 writes
        // cross that, so 120 leave a keyframe among them in every run.
        for _ in 0..<120 { context[RestoredFillerAtom()] += 1 }
        context.restore(before)
        try recorder.close()
        // Transaction lines, `[seq,t,"cause",…`, without their times.
        return sink.lines.filter { $0.hasPrefix("[") }.map { $0.replacing(/^\[([0-9]+),[0-9.eE+-]+,/, with: { "[\($0.1),0," }) }
    }

    /// The order of `created`, `released` and edges in a restore is the same in every run:
    /// a `Dictionary`'s order (which its hash seed changes from one instance to the next)
    /// never reaches the journal.
    @Test func twoRunsOfARestoreWriteTheSameBytes() throws {
        let first = try recordedRestore()
        #expect(first.contains { $0.contains(#","restore","#) })
        for run in 1...4 {
            let again = try recordedRestore()
            #expect(again == first, "run \(run)")
        }
    }
}
