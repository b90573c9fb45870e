import Testing
@testable import Atoms

@MainActor
struct PropagationTests {
    @Test func diamondRecomputesOnce() {
        let probe = Probes.make()
        let context = AtomTestContext()
        #expect(context.watch(SumAtom(probe: #function)) == 1)
        probe.reset()

        context.watch(SourceAtom(probe: #function))
        context[SourceAtom(probe: #function)] = 2
        #expect(probe.count("left") == 1)
        #expect(probe.count("right") == 1)
        #expect(probe.count("sum") == 1)
        // Computed once, with both sides already updated: 3 + 20.
        #expect(probe.events.contains("sum=23"))
        #expect(!probe.events.contains { $0.hasPrefix("sum=") && $0 != "sum=23" })
        #expect(context.watch(SumAtom(probe: #function)) == 23)
    }

    @Test func dependentsUpdateInTopologicalOrder() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(SumAtom(probe: #function))
        context.watch(SourceAtom(probe: #function))
        probe.reset()
        context[SourceAtom(probe: #function)] = 1
        let sum = probe.events.firstIndex(of: "sum")!
        #expect(probe.events.firstIndex(of: "left")! < sum)
        #expect(probe.events.firstIndex(of: "right")! < sum)
    }

    @Test func subscriberNotifiedOncePerTransaction() {
        let context = AtomTestContext()
        var updates = 0
        context.onUpdate = { updates += 1 }
        context.watch(SumAtom())
        context.watch(LeftAtom())
        context.watch(SourceAtom())
        context[SourceAtom()] = 4
        #expect(updates == 1)
        context.modify(SourceAtom()) { $0 += 1 }
        #expect(updates == 2)
        #expect(context.read(SumAtom()) == 56)
    }
}
