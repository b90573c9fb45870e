// Replays samples/journals/todo.jsonl (recorded by sample-todo, 260 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
// Guarded for this repository: .ci/tsan-tests.sh defines ATOMS_SANITIZER_BUILD (a sanitized build
// cannot import an executable's module); ReplayTestCommandTests compares the rest with replay-test.
#if !ATOMS_SANITIZER_BUILD
import Atoms
import AtomsTesting
import Testing
@testable import sample_todo

@Suite(.atomJournal) @MainActor
struct TodoReplayTests {
    @Test func todoSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/todo.jsonl")
        replay.drive(sample_todo.FilterAtom())  // written 25 times, changed 19 times
        replay.drive(sample_todo.NextTodoIDAtom())  // written 67 times, changed 67 times
        replay.drive(sample_todo.TodosAtom())  // written 164 times, changed 164 times
        replay.check(sample_todo.FilteredTodosAtom())  // changed 162 times
        replay.check(sample_todo.StatsAtom())  // changed 164 times
        try replay.run(in: AtomTestContext())
    }
}
#endif
