/// The storage of atom values and their dependency graph, shared by a root and its contexts.
///
/// Create one to keep state outside a root's lifetime, or to observe transactions:
/// `AtomRoot(storesIn: store)`.
@MainActor
public final class AtomStore {
    let engine: StoreEngine

    /// Creates an empty store.
    public nonisolated init() {
        engine = StoreEngine()
    }

    /// Calls `observer` after every committed transaction, in commit order, with what changed.
    ///
    /// This is the observation point a journal recorder attaches to.
    public func observeTransactions(_ observer: @escaping @MainActor (AtomTransaction) -> Void) {
        engine.transactionObservers.append(observer)
        engine.recordsChanges = true
    }

    /// The number of transactions committed so far.
    public var committedTransactions: Int {
        engine.sequence
    }

    /// Captures the values of all cached atoms and the dependency graph.
    public func snapshot() -> Snapshot {
        engine.makeSnapshot()
    }
}
