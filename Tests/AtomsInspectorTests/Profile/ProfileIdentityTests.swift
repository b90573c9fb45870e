import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

private struct ComingBackAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

private struct DoubledBackAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(ComingBackAtom()) * 2 }
}

private struct PaddingAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// `profile` counts an atom once across the numbers it had, as `stats` and the report do.
@MainActor
struct ProfileIdentityTests {
    @Test func anAtomThatCameBackIsOneRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("back.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4)
        recorder.recordsTiming = true
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(PaddingAtom())
        for round in 0..<3 {
            context.watch(DoubledBackAtom())
            context[ComingBackAtom()] = round + 1
            context.unwatch(DoubledBackAtom())
            // Past a keyframe, which forgets the released atoms: they come back under new numbers.
            for _ in 0..<60 { context[PaddingAtom()] += 1 }
        }
        try recorder.close()
        let journal = try InspectedJournal(path: path)
        let numbers = try journal.declarations(through: journal.reader.lastStep).values.filter { $0.label == "DoubledBackAtom" }
        #expect(numbers.count == 3, "declared under three numbers")
        let profile = try ProfileCommand.profile(journal, options: .init())
        let rows = profile.atoms.filter { $0.atom == "DoubledBackAtom" }
        #expect(rows.count == 1, "\(profile.atoms.map(\.atom))")
        // Evaluated when watched and again when its source changed, in each of the three rounds.
        #expect(rows.first?.evaluations == 6)
        // Each evaluation names the number the atom has at its step (the recorder keeps the
        // numbers of timed atoms between transactions: a number forgotten is not reused).
        let timed = try TimedSteps.read(journal, steps: (journal.reader.firstStep + 1)...journal.reader.lastStep)
        var named = 0
        for transaction in timed.transactions {
            let state = try journal.state(at: transaction.step, decodingValuesOf: [])
            for evaluation in transaction.timing.evaluations {
                #expect(state.declarations[evaluation.atom] != nil, "step \(transaction.step): atom \(evaluation.atom)")
                if state.declarations[evaluation.atom]?.label == "DoubledBackAtom" { named += 1 }
            }
        }
        #expect(named == 6)
    }
}
