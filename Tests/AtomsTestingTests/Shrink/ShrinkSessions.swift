import Atoms
import AtomsJournal
import TestSupport
@testable import AtomsTesting

/// Generated 1,000-write sessions, recorded as an app records them, for the shrink's tests
/// and its benchmark figure.
@MainActor
enum ShrinkSessions {
    /// The value bug: 500 todos added, then toggles, and at write 700 a todo whose text ends
    /// with "!" (which the stats leave out).
    static func recordValueBug(to path: String, writes: Int = 1_000, badWrite: Int = 700) {
        let context = AtomTestContext(journal: .path(path))
        context.watch(ShrinkStatsAtom())
        var nextID = 0
        for index in 0..<writes {
            if index == badWrite {
                context[ShrinkTodosAtom()].append(ShrinkTodo(id: nextID, text: "Call the bank about the card!", isCompleted: false))
                nextID += 1
            } else if index < writes / 2 {
                context[ShrinkTodosAtom()].append(ShrinkTodo(id: nextID, text: "Todo number \(nextID), written as users write them", isCompleted: false))
                nextID += 1
            } else {
                let count = context.read(ShrinkTodosAtom()).count
                context[ShrinkTodosAtom()][(index * 37) % count].isCompleted.toggle()
            }
        }
        (context.recording as? JournalRecording)?.finish(testFailed: false)
    }

    /// The sequence bug: 1,000 writes, of which the draft is written at 10 places and noise
    /// at the others; the draft's effect counts its updates, and the count reaches 7 at the
    /// seventh.
    static func recordSequenceBug(to path: String, writes: Int = 1_000) {
        let context = AtomTestContext(journal: .path(path))
        context.watch(EditCountAtom())
        context.watch(DraftAtom())
        context.watch(NoiseAtom())
        var drafts = 0
        for index in 0..<writes {
            if index % 90 == 45, drafts < 10 {
                drafts += 1
                context[DraftAtom()] = "Dear Ada, draft \(drafts) of the letter"
            } else {
                context[NoiseAtom()] = index
            }
        }
        (context.recording as? JournalRecording)?.finish(testFailed: false)
    }
}
