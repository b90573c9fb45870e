import Testing
@testable import Atoms

private struct TallyAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// The recorder's view of a commit is the store's own lists, which the next transaction
/// reuses: it is valid during its observer call only, and says when it no longer is.
@MainActor
struct CommittedTransactionTests {
    @Test func aViewIsValidDuringItsCallOnly() {
        let root = AtomRoot()
        var kept: [CommittedTransaction] = []
        var validDuringCalls: [Bool] = []
        var changedDuringCalls: [Int] = []
        root.store.observeCommits { committed in
            validDuringCalls.append(committed.isValid)
            var count = 0
            committed.forEachChangedValue { _, _ in count += 1 }
            changedDuringCalls.append(count)
            kept.append(committed)
        }
        let context = root.viewContext()
        context.watch(TallyAtom())
        context[TallyAtom()] = 1
        context[TallyAtom()] = 2
        #expect(validDuringCalls == [true, true, true])
        #expect(changedDuringCalls == [1, 1, 1])
        #expect(kept.map(\.isValid) == [false, false, false], "each view outlived its call")
    }
}
