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

    /// A store over an existing engine: a test context's, for a recorder to attach to.
    init(engine: StoreEngine) {
        self.engine = engine
    }

    /// Calls `observer` after every committed transaction, in commit order, with what changed.
    ///
    /// This is the observation point a journal recorder attaches to.
    public func observeTransactions(_ observer: @escaping @MainActor (AtomTransaction) -> Void) {
        engine.observers.observeTransactions(observer)
    }

    /// Calls `observer` during every commit, in commit order, with a view of what changed
    /// that is valid only during the call: the journal recorder's cheaper observation point.
    /// Called before the handlers of ``observeTransactions(_:)``.
    package func observeCommits(_ observer: @escaping @MainActor (borrowing CommittedTransaction) -> Void) {
        engine.observers.observeCommits(observer)
    }

    /// Times every transaction from now on and calls `observer` with each one's timing once
    /// its subscribers were told (see ``TransactionTiming``). The journal recorder's clock:
    /// a store nobody times does no timing work.
    package func observeTimings(_ observer: @escaping @MainActor (TransactionTiming) -> Void) {
        engine.observers.observeTimings(observer)
    }

    /// The number of transactions committed so far.
    public var committedTransactions: Int {
        engine.transactionState.sequence
    }

    /// Makes atoms start from recorded values: each atom the seeds have a value for takes it
    /// when it is first used (after computing, so its dependencies are tracked).
    public func seed(with seeds: any AtomValueSeeds) {
        engine.seed(with: seeds)
    }

    /// Sets every cached atom the seeds have a value for to that value, in one `restore`
    /// transaction; watchers of changed atoms are notified. Dependents are not recomputed: the
    /// seeds are expected to hold a consistent state.
    ///
    /// - Returns: The atoms whose values were restored.
    @discardableResult
    public func restoreValues(from seeds: any AtomValueSeeds, fileID: String = #fileID, line: UInt = #line) -> [AtomIdentity] {
        engine.restoreValues(from: seeds, location: SourceLocation(fileID: fileID, line: line))
    }

    /// Sets a cached state to the value the seeds have for it, as a subscript write does, in one
    /// ``AtomTransaction/Cause/inspector`` transaction at `fileID:line` (the control endpoint's
    /// `set`): its dependents recomputed and subscribers told. Nothing is written unless the
    /// atom is a cached ``StateAtom`` and the seeds' value decodes as its type.
    package func write(_ atom: AtomIdentity, from seeds: any AtomValueSeeds, fileID: String, line: UInt) -> AtomSeedWrite {
        engine.write(atom, from: seeds, location: SourceLocation(fileID: fileID, line: line))
    }

    /// Captures the values of all cached atoms and the dependency graph.
    public func snapshot() -> Snapshot {
        engine.makeSnapshot()
    }

    /// Hands the value of every atom a ``snapshot()`` holds to its slot from `maker`, as each
    /// commit hands over the values it changed (``CommittedTransaction/captureChangedValues(into:)``).
    package func captureValues(into maker: any CommitSlotMaker) {
        engine.captureValues(into: maker)
    }

    /// Brings back the values and graph of a ``snapshot()``, in one `restore` transaction, as
    /// a view context's `restore(_:)` does.
    package func restore(_ snapshot: Snapshot, fileID: String = #fileID, line: UInt = #line) {
        engine.restore(snapshot, location: SourceLocation(fileID: fileID, line: line))
    }
}
