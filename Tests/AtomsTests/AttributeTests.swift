import Testing
import Atoms

/// A generator whose reset is delegated, as in the upstream README's `Resettable` example.
struct SeedAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 1 }
}

struct RollAtom: ValueAtom, Resettable, Hashable {
    func value(context: Context) -> Int {
        context.watch(SeedAtom()) * 6
    }

    func reset(context: CurrentContext) {
        context.reset(SeedAtom())
    }
}

/// A value atom made refreshable, as in the upstream README's `Refreshable` example.
struct RefreshedCountAtom: ValueAtom, Refreshable, Hashable {
    func value(context: Context) -> Int {
        context.watch(SeedAtom())
    }

    func refresh(context: CurrentContext) async -> Int {
        await Task.yield()
        return context.read(SeedAtom()) + 100
    }
}

@MainActor
struct AttributeTests {
    @Test func resettableRunsItsOwnReset() {
        let context = AtomTestContext()
        #expect(context.watch(RollAtom()) == 6)
        context.watch(SeedAtom())
        context[SeedAtom()] = 3
        #expect(context.read(RollAtom()) == 18)
        context.reset(RollAtom())  // resets the seed instead, which recomputes the roll
        #expect(context.read(SeedAtom()) == 1)
        #expect(context.read(RollAtom()) == 6)
    }

    @Test func refreshableRefreshSetsTheValueAndNotifies() async {
        let context = AtomTestContext()
        #expect(context.watch(RefreshedCountAtom()) == 1)
        var updates = 0
        context.onUpdate = { updates += 1 }
        #expect(await context.refresh(RefreshedCountAtom()) == 101)
        #expect(context.read(RefreshedCountAtom()) == 101)
        #expect(updates == 1)
    }
}
