import Atoms
import Testing

/// Counts how often `CleanedUpAtom` ended a computation.
private struct CleanupCountAtom: StateAtom, KeepAlive, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Writes from its `onTermination` handler: on each recomputation and on release.
private struct CleanedUpAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        let source = context.watch(SourceAtom())
        context.onTermination = {
            context[CleanupCountAtom()] += 1
        }
        return source
    }
}

/// Writes made while a transaction commits (observers, `onTermination` handlers on
/// recomputation and release, effects) are transactions of their own, in order, never merged
/// and never lost.
@MainActor
struct ReentrancyTests {
    @Test func onTerminationWritesAreTheirOwnTransactions() {
        let root = AtomRoot()
        var records: [AtomTransaction] = []
        root.observeTransactions { records.append($0) }
        let context = root.viewContext()
        context.watch(CleanupCountAtom())
        context.watch(CleanedUpAtom())
        records.removeAll()

        context[SourceAtom()] = 1  // recomputes CleanedUpAtom: its handler writes
        #expect(records.map(\.cause) == [.set, .set])
        #expect(records[0].changedValues.map(\.atom.label).sorted() == ["CleanedUpAtom", "SourceAtom"])
        #expect(records[1].changedValues.map(\.atom.label) == ["CleanupCountAtom"])
        #expect(context.read(CleanupCountAtom()) == 1)

        records.removeAll()
        context.unwatch(CleanedUpAtom())  // released: its handler writes again
        #expect(records.map(\.cause) == [.release, .set])
        #expect(records[0].released.map(\.label).sorted() == ["CleanedUpAtom", "SourceAtom"])
        #expect(records[1].changedValues.map(\.atom.label) == ["CleanupCountAtom"])
        #expect(context.read(CleanupCountAtom()) == 2)
        #expect(records.map(\.sequence) == records.map(\.sequence).sorted())
    }

    @Test func anObserversWriteFollowsTheTransactionEveryObserverSaw() {
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(SourceAtom())
        context.watch(CleanupCountAtom())
        var first: [Int] = []
        var second: [Int] = []
        root.observeTransactions { record in
            first.append(record.sequence)
            if record.changedValues.contains(where: { $0.atom.label == "SourceAtom" }) {
                context[CleanupCountAtom()] += 1
            }
        }
        root.observeTransactions { second.append($0.sequence) }
        context[SourceAtom()] = 5
        context[SourceAtom()] = 6
        #expect(first == second, "every observer sees every transaction in commit order")
        #expect(first == first.sorted() && first.count == 4)
        #expect(context.read(CleanupCountAtom()) == 2, "no write lost")
    }
}
