/// What one committed transaction cost, measured on ``MonotonicClock``: every atom evaluation,
/// nested as they ran, and the time spent in the runtime, in transaction observers, in effects
/// and in subscribers; with the asynchronous tasks that ended since the previous one.
///
/// The store measures this only while someone observes timings (the journal recorder, through
/// ``AtomStore/observeTimings(_:)``), and reports it once the transaction's subscribers were
/// told, which is after the transaction itself was reported: transactions that subscribers
/// started meanwhile are reported (and timed) before it.
@MainActor
package final class TransactionTiming {
    /// One run of an atom's computation (its first, or a recomputation).
    @MainActor
    package struct Evaluation {
        let node: AnyAtomNode
        /// When it started and ended.
        package var start: UInt64
        package var end: UInt64 = 0
        /// How many evaluations enclosed it (0 for one the transaction ran itself).
        package let depth: Int

        /// The atom evaluated.
        package var atom: AtomIdentity { node.identity }
    }

    /// An effect's event or a subscriber's notification, after commit.
    @MainActor
    package struct Slice {
        /// The atom whose effect ran, for an effect.
        let node: AnyAtomNode?
        /// Where the subscriber was created, for a subscriber.
        package let location: SourceLocation?
        package let start: UInt64
        package let end: UInt64

        /// The atom whose effect ran (`nil` for a subscriber).
        package var atom: AtomIdentity? { node?.identity }
    }

    /// An asynchronous atom's task (or refresh), from the computation that started it to its
    /// result: committed (in this transaction) or dropped (superseded, cancelled or released).
    @MainActor
    package struct TaskSpan {
        let node: AnyAtomNode
        package let start: UInt64
        package let end: UInt64
        /// Whether its result was committed, in this transaction.
        package let isCommitted: Bool

        /// The atom whose task it was.
        package var atom: AtomIdentity { node.identity }
    }

    // Unchecked exclusivity, here and in `TransactionTimer`: the fields are touched a few times
    // in every timed transaction, on the main actor, each access ending before the next starts
    // (no field is passed inout across a call that could reach it again); the dynamic checks
    // were 40% of the instructions timing added.

    /// The transaction's number (``AtomTransaction/sequence``).
    @exclusivity(unchecked) package internal(set) var sequence = 0
    /// When it began (its outermost `begin`).
    @exclusivity(unchecked) package internal(set) var start: UInt64 = 0
    /// When it started committing: the end of the runtime's own work (evaluations,
    /// propagation, release).
    @exclusivity(unchecked) package internal(set) var commitStart: UInt64 = 0
    /// When the transaction observers (the recorder's capture among them) and snapshot
    /// observers were done.
    @exclusivity(unchecked) package internal(set) var observersEnd: UInt64 = 0
    /// When its effects were done.
    @exclusivity(unchecked) package internal(set) var effectsEnd: UInt64 = 0
    /// When its subscribers were told: the end of the transaction.
    @exclusivity(unchecked) package internal(set) var end: UInt64 = 0
    /// Evaluations in the order they started.
    @exclusivity(unchecked) package internal(set) var evaluations: [Evaluation] = []
    /// Effect events in the order they ran.
    @exclusivity(unchecked) package internal(set) var effects: [Slice] = []
    /// Subscriber notifications in the order they ran.
    @exclusivity(unchecked) package internal(set) var subscribers: [Slice] = []
    /// For each changed atom, how many subscribers its change told.
    @exclusivity(unchecked) private(set) var notifiedNodes: [(node: AnyAtomNode, count: Int)] = []
    /// Tasks that ended since the previous transaction, or in this one.
    @exclusivity(unchecked) package internal(set) var tasks: [TaskSpan] = []
    /// The last clock reading after commit: where the next effect or subscriber starts, and
    /// the end once the last one is done (one reading per event, not two).
    @exclusivity(unchecked) var mark: UInt64 = 0

    nonisolated init() {}

    /// The observers are done.
    func observersEnded() {
        mark = MonotonicClock.now()
        observersEnd = mark
        effectsEnd = mark
    }

    /// An effect event ran, since the previous mark.
    func ranEffect(of node: AnyAtomNode) {
        let end = MonotonicClock.now()
        effects.append(Slice(node: node, location: nil, start: mark, end: end))
        mark = end
        effectsEnd = end
    }

    /// A subscriber was told, since the previous mark.
    func notifiedSubscriber(at location: SourceLocation) {
        let end = MonotonicClock.now()
        subscribers.append(Slice(node: nil, location: location, start: mark, end: end))
        mark = end
    }

    /// Forgets everything, keeping the lists' capacity, for the next transaction.
    func reset() {
        sequence = 0
        start = 0
        commitStart = 0
        observersEnd = 0
        effectsEnd = 0
        end = 0
        mark = 0
        if !evaluations.isEmpty { evaluations.removeAll(keepingCapacity: true) }
        if !effects.isEmpty { effects.removeAll(keepingCapacity: true) }
        if !subscribers.isEmpty { subscribers.removeAll(keepingCapacity: true) }
        if !notifiedNodes.isEmpty { notifiedNodes.removeAll(keepingCapacity: true) }
        if !tasks.isEmpty { tasks.removeAll(keepingCapacity: true) }
    }

    func notified(_ node: AnyAtomNode, count: Int) {
        notifiedNodes.append((node, count))
    }
}

/// The store's timer: the timing of the transaction open now, while someone observes timings.
@MainActor
final class TransactionTimer {
    /// The transaction being timed; replaced when one commits.
    @exclusivity(unchecked) private(set) var current = TransactionTiming()
    /// The evaluations running now (indices into `current.evaluations`).
    @exclusivity(unchecked) private var running: [Int] = []
    @exclusivity(unchecked) private var observers: [@MainActor (TransactionTiming) -> Void] = []

    nonisolated init() {}

    /// Adds an observer, called with each finished transaction's timing.
    func addObserver(_ observer: @escaping @MainActor (TransactionTiming) -> Void) {
        observers.append(observer)
    }

    /// The outermost `begin` of a transaction.
    func began() {
        current.start = MonotonicClock.now()
    }

    /// An evaluation starts; returns its token for ``evaluationEnded(_:)``.
    func evaluationStarted(_ node: AnyAtomNode) -> Int {
        let index = current.evaluations.count
        current.evaluations.append(.init(node: node, start: MonotonicClock.now(), depth: running.count))
        running.append(index)
        return index
    }

    /// The evaluation `token` ended.
    func evaluationEnded(_ token: Int, of node: AnyAtomNode) {
        let now = MonotonicClock.now()
        running.removeLast()
        // The transaction it belonged to may have committed meanwhile (nothing does so today).
        if token < current.evaluations.count, current.evaluations[token].node === node {
            current.evaluations[token].end = now
        }
    }

    /// A task that began at `start` ended: its result is committed in the open transaction,
    /// or dropped (then reported with the next transaction).
    func taskEnded(_ node: AnyAtomNode, start: UInt64, committed: Bool) {
        guard start != 0, !node.isTransient else { return }
        current.tasks.append(.init(node: node, start: start, end: MonotonicClock.now(), isCommitted: committed))
    }

    /// The transaction committed nothing: its evaluations are forgotten, the tasks that ended
    /// wait for the next one.
    func discard() {
        let tasks = current.tasks
        current.reset()
        current.tasks = tasks
    }

    /// Timings reported and reset, reused rather than allocated for every transaction.
    @exclusivity(unchecked) private var spare: [TransactionTiming] = []

    /// The transaction `sequence` starts committing: its timing is handed out, and the next
    /// transaction gets a fresh one.
    func committing(sequence: Int) -> TransactionTiming {
        let timing = current
        timing.sequence = sequence
        timing.commitStart = MonotonicClock.now()
        current = spare.popLast() ?? TransactionTiming()
        return timing
    }

    /// Reports a finished transaction's timing (its end is the last mark), then keeps it for
    /// reuse.
    func finished(_ timing: TransactionTiming) {
        timing.end = timing.mark
        for observer in observers {
            observer(timing)
        }
        timing.reset()
        spare.append(timing)
    }
}
