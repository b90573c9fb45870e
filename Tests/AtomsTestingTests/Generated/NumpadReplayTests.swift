// Replays samples/journals/numpad.jsonl (recorded by sample-numpad, 38 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
// Guarded for this repository: .ci/tsan-tests.sh defines ATOMS_SANITIZER_BUILD (a sanitized build
// cannot import an executable's module); ReplayTestCommandTests compares the rest with replay-test.
#if !ATOMS_SANITIZER_BUILD
import Atoms
import AtomsTesting
import Testing
@testable import sample_numpad

@Suite(.atomJournal) @MainActor
struct NumpadReplayTests {
    @Test func numpadSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/numpad.jsonl")
        replay.drive(sample_numpad.InputAtom())  // written 36 times, changed 36 times
        replay.check(sample_numpad.DisplayAtom())  // changed 36 times
        replay.check(sample_numpad.KeystrokesAtom())  // changed 36 times
        try replay.run(in: AtomTestContext())
    }
}
#endif
