import Atoms
import AtomsTesting
import Testing

/// Journals in the folder `ATOMS_TEST_JOURNALS` names, kept only for the failing test.
@Suite(.atomJournal) @MainActor
struct RetainedTests {
    @Test func passesWithAPlainContext() {
        let context = AtomTestContext()
        context.watch(DoubledAtom())
        context[CounterAtom()] = 2
        #expect(context.watch(DoubledAtom()) == 4)
    }

    @Test func passesWithItsOwnJournal() throws {
        let context = AtomTestContext(journal: .retainOnFailure)
        context.watch(CounterAtom())
        context[CounterAtom()] += 1
        context[CounterAtom()] += 1
        try context.checkChanges(of: CounterAtom(), count: 2)
        try context.checkGraph("max-depth 2")
    }

    @Test func failsOnPurpose() {
        let context = AtomTestContext()
        context.watch(DoubledAtom())
        context[CounterAtom()] = 20
        context[CounterAtom()] += 1
        // Fails: the counter is 21. Its journal's last step shows it.
        #expect(context.read(CounterAtom()) == 22)
    }
}
