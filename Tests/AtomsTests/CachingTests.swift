import Testing
@testable import Atoms

/// Caching, update and release rules from "Behaviour that compatible code relies on".
@MainActor
struct CachingTests {
    @Test func valueIsComputedOnFirstWatchAndCached() {
        let probe = Probes.make()
        let context = AtomTestContext()
        #expect(context.lookup(LeftAtom(probe: #function)) == nil)
        #expect(context.watch(LeftAtom(probe: #function)) == 1)
        #expect(context.watch(LeftAtom(probe: #function)) == 1)
        #expect(probe.count("left") == 1)
        #expect(probe.count("source") == 1)
    }

    @Test func readOfUncachedAtomComputesWithoutCaching() {
        let probe = Probes.make()
        let context = AtomTestContext()
        #expect(context.read(LeftAtom(probe: #function)) == 1)
        #expect(context.read(LeftAtom(probe: #function)) == 1)
        #expect(probe.count("left") == 2)
        #expect(context.lookup(LeftAtom(probe: #function)) == nil)
        #expect(context.lookup(SourceAtom(probe: #function)) == nil, "dependencies of a read are released")
        #expect(context.state.engine.invariantViolations().isEmpty)
    }

    @Test func writesToUncachedAtomsAreIgnored() {
        let context = AtomTestContext()
        context.set(5, for: SourceAtom())
        context.modify(SourceAtom()) { $0 += 1 }
        context[SourceAtom()] = 9
        #expect(context.watch(SourceAtom()) == 0)
    }

    @Test func equalValueStillPropagates() {
        let probe = Probes.make()
        let context = AtomTestContext()
        var updates = 0
        context.onUpdate = { updates += 1 }
        context.watch(LeftAtom(probe: #function))
        context[SourceAtom(probe: #function)] = 0
        #expect(probe.count("left") == 2)
        #expect(updates == 1)
    }

    @Test func resetOfDerivedAtomRecomputesOnlyIt() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(SumAtom(probe: #function))
        context.watch(SourceAtom(probe: #function))
        context[SourceAtom(probe: #function)] = 3
        probe.reset()

        context.reset(LeftAtom(probe: #function))
        #expect(probe.count("left") == 1)
        #expect(probe.count("right") == 0)
        #expect(probe.count("source") == 0)
        #expect(probe.count("sum") == 1, "the reset atom's dependents update")
        #expect(context.read(SourceAtom(probe: #function)) == 3, "dependencies keep their values")
    }

    @Test func resetOfStateAtomRestoresDefault() {
        let context = AtomTestContext()
        context.watch(SourceAtom())
        context[SourceAtom()] = 7
        context.reset(SourceAtom())
        #expect(context.read(SourceAtom()) == 0)
    }

    @Test func releaseCascadesWhenLastWatcherUnwatches() {
        let context = AtomTestContext()
        context.watch(SumAtom())
        context.watch(RightAtom())
        context.unwatch(SumAtom())
        #expect(context.lookup(SumAtom()) == nil)
        #expect(context.lookup(LeftAtom()) == nil, "only Sum watched Left")
        #expect(context.lookup(RightAtom()) == 0, "still watched by the context")
        #expect(context.lookup(SourceAtom()) == 0, "still watched by Right")

        context.unwatch(RightAtom())
        #expect(context.lookup(RightAtom()) == nil)
        #expect(context.lookup(SourceAtom()) == nil)
        #expect(context.state.engine.nodes.slots.allSatisfy { $0 == nil })
    }

    @Test func keepAliveAtomSurvivesUnwatch() {
        let context = AtomTestContext()
        context.watch(KeptAtom())
        context[KeptAtom()] = "changed"
        context.unwatch(KeptAtom())
        #expect(context.lookup(KeptAtom()) == "changed")
    }

    @Test func droppingTestContextReleasesItsWatchesDeterministically() {
        let root = AtomRoot()
        var view: AtomViewContext? = root.viewContext()
        view?.watch(SumAtom())
        #expect(root.store.snapshot().atoms.count == 4)
        view = nil
        #expect(root.store.snapshot().atoms.isEmpty)
    }

    @Test func dependenciesFollowTheLatestComputation() {
        let context = AtomTestContext()
        context.watch(SwitchingAtom())
        #expect(context.lookup(LeftAtom()) == 1)
        context.watch(UseRightAtom())
        context[UseRightAtom()] = true
        #expect(context.lookup(LeftAtom()) == nil, "no longer watched after recomputation")
        #expect(context.lookup(RightAtom()) == 0)
        #expect(context.state.engine.invariantViolations().isEmpty)
    }
}

struct UseRightAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Bool { false }
}

struct SwitchingAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        context.watch(UseRightAtom()) ? context.watch(RightAtom()) : context.watch(LeftAtom())
    }
}
