import Testing
@testable import Atoms

private struct CounterAtom: StateAtom, Hashable {
    let id: Int
    func defaultValue(context: Context) -> Int { id }
}

/// The parts of the engine's state keep their rules through their operations: the node table
/// reuses slots and keeps its index in step, held writes wait and run in order, scopes are
/// found while they live, and only observers that read a transaction's lists make the store
/// keep them.
@MainActor
struct EngineStateTests {
    @Test func aReleasedNodesSlotIsReusedWithANewSerial() {
        let context = AtomTestContext()
        let engine = context.state.engine
        context.watch(CounterAtom(id: 1))
        let first = engine.nodes.slots.compactMap { $0 }.map(\.serial)
        context.unwatch(CounterAtom(id: 1))
        #expect(engine.nodes.freeSlots == [0])
        context.watch(CounterAtom(id: 2))
        #expect(engine.nodes.slots.count == 1, "the freed slot is taken again, the table does not grow")
        #expect(engine.nodes.freeSlots.isEmpty)
        #expect(engine.nodes.slots.compactMap { $0 }.map(\.serial).allSatisfy { $0 > first.max()! })
        #expect(engine.nodes.index.node(key: CounterAtom(id: 1).key, of: CounterAtom.self, scope: nil) == nil)
        #expect(engine.invariantViolations().isEmpty)
    }

    @Test func transactionsNestAndOnlyTheOutermostCommits() {
        var state = TransactionState()
        let opens = [state.enter(), state.enter()]
        let commits = [state.leave(), state.leave()]
        #expect(opens == [true, false], "the first begin opens a transaction, a nested one joins it")
        #expect(commits == [false, true], "only the outermost end commits")
        state.startCommitting()
        let opensDuringCommit = state.enter()
        let commitsDuringCommit = state.leave()
        #expect(!opensDuringCommit && !commitsDuringCommit, "work during a commit joins the transaction being committed")
        state.endCommitting()
        state.releaseWrites()
        let sequences = [state.nextSequence(), state.nextSequence()]
        #expect(sequences == [1, 2])
        #expect(state.sequence == 2)
    }

    @Test func heldWritesWaitForEveryHoldAndOpenTransactionThenRunInOrder() {
        var state = TransactionState()
        var ran: [String] = []
        state.holdWrites()
        state.holdWrites()
        state.deferWrite { ran.append("first") }
        let wereRunningEffects = state.setRunningEffects(true)
        state.deferWrite { ran.append("an effect's") }
        _ = state.setRunningEffects(wereRunningEffects)
        state.releaseWrites()
        #expect(state.writesAreHeld)
        let whileHeld = state.nextDeferredWrite()
        #expect(whileHeld == nil, "one hold is still open")
        state.releaseWrites()
        _ = state.enter()
        let whileOpen = state.nextDeferredWrite()
        #expect(whileOpen == nil, "a transaction is open")
        _ = state.leave()
        var fromEffect: [Bool] = []
        while let deferred = state.nextDeferredWrite() {
            deferred.write()
            fromEffect.append(deferred.fromEffect)
        }
        #expect(ran == ["first", "an effect's"])
        #expect(fromEffect == [false, true])
    }

    @Test func aDroppedScopeIsNoLongerFound() {
        let root = AtomRoot()
        var scope: AtomScope? = AtomScope(root: root)
        let kept = AtomScope(root: root)
        let key = scope!.key
        #expect(key == ScopeKey(id: 1) && kept.key == ScopeKey(id: 2), "each store counts scope keys from 1")
        #expect(root.store.engine.scopes.state(for: key) != nil)
        scope = nil
        #expect(root.store.engine.scopes.state(for: key) == nil)
        #expect(root.store.engine.scopes.state(for: kept.key) === kept.state)
    }

    @Test func onlyObserversThatReadTheListsMakeTransactionsKeepThem() {
        var registry = ObserverRegistry()
        registry.observeSnapshots { _ in }
        registry.observeTimings { _ in }
        #expect(!registry.recordsChanges)
        let timer = registry.timer
        registry.observeTimings { _ in }
        #expect(registry.timer === timer, "one timer serves every timing observer")
        registry.observeCommits { _ in }
        #expect(registry.recordsChanges)
        #expect(registry.snapshotObservers.count == 1 && registry.commitObservers.count == 1)
    }
}
