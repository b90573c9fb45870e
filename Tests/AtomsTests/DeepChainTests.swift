import Testing
@testable import Atoms

/// No recursion depth limit: a chain of 100,000 derived atoms is computed, updated and released.
@MainActor
struct DeepChainTests {
    @Test func chainOfOneHundredThousandAtoms() {
        let length = 100_000
        let context = AtomTestContext()
        #expect(context.watch(ChainAtom(index: length - 1)) == length - 1)
        context.watch(ChainSourceAtom())
        context[ChainSourceAtom()] = 10
        #expect(context.read(ChainAtom(index: length - 1)) == length + 9)
        context.unwatch(ChainAtom(index: length - 1))
        #expect(context.lookup(ChainAtom(index: 0)) == nil)
        #expect(context.snapshot().atoms.count == 1)
    }
}
