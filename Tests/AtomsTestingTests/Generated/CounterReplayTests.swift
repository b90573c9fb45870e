// Replays samples/journals/counter.jsonl (recorded by sample-counter, 37 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
// Guarded for this repository: .ci/tsan-tests.sh defines ATOMS_SANITIZER_BUILD (a sanitized build
// cannot import an executable's module); ReplayTestCommandTests compares the rest with replay-test.
#if !ATOMS_SANITIZER_BUILD
import Atoms
import AtomsTesting
import Testing
@testable import sample_counter

@Suite(.atomJournal) @MainActor
struct CounterReplayTests {
    @Test func counterSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/counter.jsonl")
        replay.drive(sample_counter.CounterAtom())  // written 35 times, changed 32 times
        replay.check(sample_counter.IsEvenAtom())  // changed 31 times
        try replay.run(in: AtomTestContext())
    }
}
#endif
