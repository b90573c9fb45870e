// Replays samples/journals/todo.jsonl (recorded by sample-todo, 260 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
import Atoms
import AtomsTesting
import Testing
@testable import SampleTodo

@Suite(.atomJournal) @MainActor
struct TodoReplayTests {
    @Test func todoSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/todo.jsonl")
        replay.drive(SampleTodo.FilterAtom())  // written 25 times, changed 19 times
        replay.drive(SampleTodo.NextTodoIDAtom())  // written 67 times, changed 67 times
        replay.drive(SampleTodo.TodosAtom())  // written 164 times, changed 164 times
        replay.check(SampleTodo.FilteredTodosAtom())  // changed 162 times
        replay.check(SampleTodo.StatsAtom())  // changed 164 times
        try replay.run(in: AtomTestContext())
    }
}
