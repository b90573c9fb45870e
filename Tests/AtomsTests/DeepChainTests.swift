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

    /// Under ThreadSanitizer, every switch to a fresh stack and back must leave the sanitizer's
    /// shadow call stack balanced; one frame lost per switch ran it below its start after a
    /// few thousand switches and crashed the sanitizer runtime. Without a sanitizer, this
    /// checks that each body runs once, on another stack, and its result comes back.
    @Test func thousandsOfFreshStacksInARow() {
        var total = 0
        var stacks = Set<Int>()
        for round in 0..<3_000 {
            let (result, address) = StackGuard.runOnFreshStack { () -> (Int, Int) in
                var marker = 0
                let address = withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
                return (round * 2, address)
            }
            total += result
            stacks.insert(address >> 20)
        }
        #expect(total == (0..<3_000).reduce(0) { $0 + $1 * 2 })
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
        #expect(!stacks.contains(here >> 20), "the bodies ran on stacks other than the caller's")
    }
}
