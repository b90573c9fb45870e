/// Who watches a store's commits: snapshot, transaction and commit observers, the timer of
/// transactions, and whether transactions must keep lists of what changed for any of them.
///
/// Observers are only ever added, through the operations below; each one that needs the lists
/// of changes turns ``recordsChanges`` on for good.
@MainActor
struct ObserverRegistry {
    /// Called with a snapshot of the store after each commit (``AtomRoot/observe(_:)``).
    private(set) var snapshotObservers: [@MainActor (Snapshot) -> Void] = []
    /// Called with the public record of each commit.
    private(set) var transactionObservers: [@MainActor (AtomTransaction) -> Void] = []
    /// The package's own observers (the journal recorder), called during the commit, before
    /// the public ones.
    private(set) var commitObservers: [@MainActor (borrowing CommittedTransaction) -> Void] = []
    /// Whether transactions keep lists of what changed (someone observes transactions or a
    /// scope observes its atoms); otherwise only a change count is kept.
    private(set) var recordsChanges = false
    /// Times transactions while someone observes timings; `nil` (costing a test of it) otherwise.
    private(set) var timer: TransactionTimer?

    nonisolated init() {}

    /// Adds an observer of snapshots after each commit.
    mutating func observeSnapshots(_ observer: @escaping @MainActor (Snapshot) -> Void) {
        snapshotObservers.append(observer)
    }

    /// Adds an observer of each commit's public record; transactions keep their lists from now on.
    mutating func observeTransactions(_ observer: @escaping @MainActor (AtomTransaction) -> Void) {
        transactionObservers.append(observer)
        recordsChanges = true
    }

    /// Adds a package observer of each commit; transactions keep their lists from now on.
    mutating func observeCommits(_ observer: @escaping @MainActor (borrowing CommittedTransaction) -> Void) {
        commitObservers.append(observer)
        recordsChanges = true
    }

    /// Makes transactions keep their lists of changes, for an observer that reads them after
    /// the commit (a scope's, which looks at the scopes touched).
    mutating func recordChanges() {
        recordsChanges = true
    }

    /// Adds an observer of transaction timings, starting the timer on the first one.
    mutating func observeTimings(_ observer: @escaping @MainActor (TransactionTiming) -> Void) {
        let timer = self.timer ?? TransactionTimer()
        timer.addObserver(observer)
        self.timer = timer
    }
}
