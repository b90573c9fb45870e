import Testing
@testable import Atoms

/// The store's node index: atoms are found by key through growth, hash collisions and removals
/// in any order.
@MainActor
struct NodeIndexTests {
    @Test func manyAtomsAreFoundAfterTheIndexGrowsAndShrinks() {
        let context = AtomTestContext()
        for id in 0..<3_000 {
            context.watch(IndexedAtom(id: id))
        }
        // Release every third atom, in an order unrelated to insertion.
        for id in stride(from: 2_999, through: 0, by: -3) {
            context.unwatch(IndexedAtom(id: id))
        }
        for id in 0..<3_000 {
            #expect(context.lookup(IndexedAtom(id: id)) == (id % 3 == 2 ? nil : id * 2), "atom \(id)")
        }
        #expect(context.state.engine.invariantViolations().isEmpty)
    }

    @Test func atomsWhoseKeysHashAlikeAreToldApart() {
        let context = AtomTestContext()
        // Every key hashes alike, so they all share one probe run.
        for id in 0..<200 {
            context.watch(CollidingAtom(id: id))
        }
        for id in [0, 57, 199, 100, 1, 198] {
            context.unwatch(CollidingAtom(id: id))
        }
        for id in 0..<200 {
            let released = [0, 57, 199, 100, 1, 198].contains(id)
            #expect(context.lookup(CollidingAtom(id: id)) == (released ? nil : id), "atom \(id)")
        }
        // Removed slots are reused, and removal leaves no gap that hides a later atom.
        for id in [57, 0] {
            #expect(context.watch(CollidingAtom(id: id)) == id)
        }
        #expect(context.lookup(CollidingAtom(id: 150)) == 150)
        #expect(context.lookup(CollidingAtom(id: 199)) == nil)
    }

    @Test func atomsOfDifferentTypesWithEqualKeysAreDistinct() {
        let context = AtomTestContext()
        context.watch(IndexedAtom(id: 7))
        context.watch(CollidingAtom(id: 7))
        context.unwatch(IndexedAtom(id: 7))
        #expect(context.lookup(IndexedAtom(id: 7)) == nil)
        #expect(context.lookup(CollidingAtom(id: 7)) == 7)
    }
}

private struct IndexedAtom: ValueAtom {
    let id: Int
    var key: Int { id }
    func value(context: Context) -> Int { id * 2 }
}

/// A key whose every value hashes alike.
private struct CollidingKey: Hashable {
    let id: Int
    func hash(into hasher: inout Hasher) {}
}

private struct CollidingAtom: ValueAtom {
    let id: Int
    var key: CollidingKey { CollidingKey(id: id) }
    func value(context: Context) -> Int { id }
}
