import Testing
import Atoms

struct ItemAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Item { Item(id: 0, isValid: false) }
}

struct Item: Equatable {
    var id: Int
    var isValid: Bool
}

struct DescriptionCountAtom: ValueAtom, Hashable {
    var probe: String

    func value(context: Context) -> String {
        Probes.named(probe).record("description")
        return context.watch(SourceAtom().changes(of: \.description))
    }
}

struct ChangesCountAtom: ValueAtom, Hashable {
    var probe: String

    func value(context: Context) -> Int {
        Probes.named(probe).record("changes")
        return context.watch(SourceAtom().changes)
    }
}

@MainActor
struct ModifierTests {
    @Test func changesStopsEqualValues() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(ChangesCountAtom(probe: #function))
        context.watch(SourceAtom())
        context[SourceAtom()] = 0
        #expect(probe.count("changes") == 1, "an equal value does not pass .changes")
        context[SourceAtom()] = 1
        #expect(probe.count("changes") == 2)
        #expect(context.read(ChangesCountAtom(probe: #function)) == 1)
    }

    @Test func changesOfDerivesAPropertyAndStopsUnchangedOnes() {
        let probe = Probes.make()
        let context = AtomTestContext()
        #expect(context.watch(DescriptionCountAtom(probe: #function)) == "0")
        context.watch(SourceAtom())
        context[SourceAtom()] = 0
        #expect(probe.count("description") == 1)
        context[SourceAtom()] = 12
        #expect(probe.count("description") == 2)
        #expect(context.watch(SourceAtom().changes(of: \.description)) == "12")
    }

    @Test func changesModifierDoesNotNotifySubscriberOfEqualValue() {
        let context = AtomTestContext()
        var updates = 0
        context.onUpdate = { updates += 1 }
        context.watch(SourceAtom().changes)
        context[SourceAtom()] = 0
        #expect(updates == 0)
        context[SourceAtom()] = 5
        #expect(updates == 1)
    }

    @Test func latestKeepsLastMatchingValue() {
        let context = AtomTestContext()
        #expect(context.watch(ItemAtom().latest(\.isValid)) == nil)
        context[ItemAtom()] = Item(id: 1, isValid: true)
        #expect(context.watch(ItemAtom().latest(\.isValid)) == Item(id: 1, isValid: true))
        context[ItemAtom()] = Item(id: 2, isValid: false)
        #expect(context.watch(ItemAtom().latest(\.isValid)) == Item(id: 1, isValid: true))
        context[ItemAtom()] = Item(id: 3, isValid: true)
        #expect(context.watch(ItemAtom().latest(\.isValid))?.id == 3)
    }

    @Test func previousGivesTheValueBeforeTheLatestUpdate() {
        let context = AtomTestContext()
        #expect(context.watch(SourceAtom().previous) == nil)
        context[SourceAtom()] = 1
        #expect(context.watch(SourceAtom().previous) == 0)
        context[SourceAtom()] = 2
        #expect(context.watch(SourceAtom().previous) == 1)
    }

    @Test func modifiedAtomsOfDifferentKeyPathsAreDistinct() {
        let context = AtomTestContext()
        context.watch(ItemAtom().changes(of: \.id))
        context.watch(ItemAtom().changes(of: \.isValid))
        #expect(context.snapshot().atoms.count == 3)
    }
}
