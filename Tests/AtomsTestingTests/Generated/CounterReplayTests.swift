// Replays samples/journals/counter.jsonl (recorded by sample-counter, 37 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
import Atoms
import AtomsTesting
import Testing
@testable import SampleCounter

@Suite(.atomJournal) @MainActor
struct CounterReplayTests {
    @Test func counterSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/counter.jsonl")
        replay.drive(SampleCounter.CounterAtom())  // written 35 times, changed 32 times
        replay.check(SampleCounter.IsEvenAtom())  // changed 31 times
        try replay.run(in: AtomTestContext())
    }
}
