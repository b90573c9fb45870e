import Atoms
import AtomsJournal
import Foundation
import TestSupport

/// A scripted session: a few hundred operations over a fixed set of atoms, including atoms
/// created and released mid-session and an atom family. It records what the store showed live
/// after every transaction, for comparison with what the journal gives back.
@MainActor
final class ScriptedSession {
    let root = AtomRoot()
    private(set) var liveSnapshots: [Int: Snapshot] = [:]
    private var slotContexts: [Int: AtomViewContext] = [:]
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(state: seed)
    }

    /// Starts capturing a snapshot after every transaction (call after attaching recorders).
    func captureSnapshots() {
        let store = root.store
        liveSnapshots[store.committedTransactions] = store.snapshot()
        root.observeTransactions { [weak self, weak store] transaction in
            guard let self, let store else { return }
            liveSnapshots[transaction.sequence] = store.snapshot()
        }
    }

    func run(operations: Int) {
        let main = root.viewContext(fileID: "Session/Main.swift", line: 10)
        main.watch(SummaryAtom())
        main.watch(CountAtom())
        main.watch(NotesAtom())
        main.watch(ShowDoneAtom())
        main.watch(SecretAtom())
        var opaque: AtomViewContext?
        for step in 0..<operations {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0, 1:
                main[CountAtom()] += 1
            case 2:
                main.modify(NotesAtom()) { $0.append(Note(id: step, text: "note \(step) \"quoted\"", done: false)) }
            case 3:
                if !main.read(NotesAtom()).isEmpty {
                    let index = Int.random(in: 0..<main.read(NotesAtom()).count, using: &generator)
                    main[NotesAtom()][index].done.toggle()
                }
            case 4:
                main[ShowDoneAtom()].toggle()
            case 5:
                let slot = Int.random(in: 0..<4, using: &generator)
                if let context = slotContexts.removeValue(forKey: slot) {
                    context.unwatch(SlotAtom(slot: slot))  // released mid-session
                } else {
                    let context = root.viewContext(fileID: "Session/Slots.swift", line: UInt(20 + slot))
                    context.watch(SlotAtom(slot: slot))
                    slotContexts[slot] = context
                }
            case 6:
                if let (slot, context) = slotContexts.first {
                    context[SlotAtom(slot: slot)] += 1.25
                }
            case 7:
                if opaque == nil {
                    opaque = root.viewContext(fileID: "Session/Opaque.swift", line: 5)
                    opaque?.watch(OpaqueAtom())
                } else {
                    opaque = nil
                }
            default:
                main.reset(CountAtom())
                main[SecretAtom()] = "secret-\(step)"
            }
        }
    }
}
