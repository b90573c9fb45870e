import Testing
@testable import Atoms

private struct TallyAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// The recorder's view of a commit is the store's own lists, which the next transaction
/// reuses. The type keeps it within its observer call: it is `~Copyable` and observers borrow
/// it, so `kept.append(committed)` in an observer does not compile. What it shows during the
/// call is each transaction's own changes, not a later one's.
@MainActor
struct CommittedTransactionTests {
    @Test func eachCallShowsItsOwnTransaction() {
        let root = AtomRoot()
        var seen: [String] = []
        root.store.observeCommits { committed in
            var values: [String] = []
            committed.forEachChangedValue { atom, value in values.append("\(atom.label)=\(value)") }
            seen.append("\(committed.sequence) \(committed.cause) \(values) graph:\(committed.changesGraph)")
        }
        let context = root.viewContext()
        context.watch(TallyAtom())
        context[TallyAtom()] = 1
        context[TallyAtom()] = 2
        #expect(seen == [
            "1 initialize [\"TallyAtom=0\"] graph:true",
            "2 set [\"TallyAtom=1\"] graph:false",
            "3 set [\"TallyAtom=2\"] graph:false",
        ])
    }
}
