// Replays samples/journals/numpad.jsonl (recorded by sample-numpad, 38 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
import Atoms
import AtomsTesting
import Testing
@testable import SampleNumpad

@Suite(.atomJournal) @MainActor
struct NumpadReplayTests {
    @Test func numpadSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/numpad.jsonl")
        replay.drive(SampleNumpad.InputAtom())  // written 36 times, changed 36 times
        replay.check(SampleNumpad.DisplayAtom())  // changed 36 times
        replay.check(SampleNumpad.KeystrokesAtom())  // changed 36 times
        try replay.run(in: AtomTestContext())
    }
}
