import Testing
@testable import Atoms

private struct PriceAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 10 }
}

private struct DoubledPriceAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(PriceAtom()) * 2 }
}

/// Seeds holding one value of any type: what a decoder hands over, or fails to.
private struct OneValue: AtomValueSeeds {
    let value: Any

    func value<Value>(for atom: AtomIdentity, as type: Value.Type) -> Value? {
        value as? Value
    }
}

/// `AtomStore.write`: a state set from seeds as a subscript write sets it, in a transaction
/// whose cause is `inspector`; anything else is refused and writes nothing.
@MainActor
struct SeedWriteTests {
    private func identity<Node: Atom>(of atom: Node, in store: AtomStore) throws -> AtomIdentity {
        try #require(store.snapshot().atoms.first { $0.atomType == Node.self })
    }

    @Test func aStateIsSetInOneInspectorTransactionAndItsDependentsRecompute() throws {
        let root = AtomRoot()
        let context = root.viewContext()
        #expect(context.watch(DoubledPriceAtom()) == 20)
        var transactions: [(AtomTransaction.Cause, String?)] = []
        root.store.observeTransactions { transactions.append(($0.cause, $0.location?.description)) }
        let price = try identity(of: PriceAtom(), in: root.store)
        #expect(root.store.write(price, from: OneValue(value: 21), fileID: "atoms-inspect/set", line: 2) == .written)
        #expect(context.read(PriceAtom()) == 21 && context.read(DoubledPriceAtom()) == 42)
        #expect(transactions.map(\.0) == [.inspector] && transactions.map(\.1) == ["atoms-inspect/set:2"])
    }

    @Test func aValueOfAnotherTypeADerivedAtomAndAnUnknownOneAreRefused() throws {
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(DoubledPriceAtom())
        let before = root.store.committedTransactions
        let price = try identity(of: PriceAtom(), in: root.store)
        #expect(root.store.write(price, from: OneValue(value: "many"), fileID: "t", line: 1) == .notDecodable(valueType: "Int"))
        let doubled = try identity(of: DoubledPriceAtom(), in: root.store)
        #expect(root.store.write(doubled, from: OneValue(value: 3), fileID: "t", line: 1) == .notState)
        #expect(root.store.committedTransactions == before && context.read(PriceAtom()) == 10, "nothing written")
        context.unwatch(DoubledPriceAtom())
        #expect(root.store.write(price, from: OneValue(value: 3), fileID: "t", line: 1) == .notCached)
    }
}
