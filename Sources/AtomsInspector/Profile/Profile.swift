import AtomsJournalReader

/// Where the time of a run of transactions went: per atom, the slowest transactions, and the
/// asynchronous tasks that ended. Times are nanoseconds on the recording's monotonic clock.
/// `profile --json` prints this document.
package struct Profile: Encodable, Equatable, Sendable {
    /// The totals of the transactions profiled.
    package struct Totals: Encodable, Equatable, Sendable {
        /// Transactions with a timing line.
        package var transactions = 0
        /// Nanoseconds in the runtime (evaluations, propagation, release).
        package var runtimeNs = 0
        /// Nanoseconds in transaction observers (the journal recorder's capture among them).
        package var observersNs = 0
        /// Nanoseconds in effects.
        package var effectsNs = 0
        /// Nanoseconds in subscribers.
        package var subscribersNs = 0
        /// Atom evaluations.
        package var evaluations = 0
        /// Evaluations that produced a value equal to the previous one.
        package var wasted = 0
    }

    /// What one atom cost, across the numbers it had (an atom released and declared again
    /// after a keyframe has a new one).
    package struct AtomCost: Encodable, Equatable, Sendable {
        /// The atom's display name (`label`, or `label[key]`).
        package var atom: String
        /// How many times it was evaluated (first computations and recomputations).
        package var evaluations = 0
        /// Nanoseconds in its evaluations, the evaluations nested in them included.
        package var totalNs = 0
        /// Nanoseconds in its evaluations less the nested ones.
        package var selfNs = 0
        /// The longest evaluation, nested ones included.
        package var maxNs = 0
        /// Evaluations that produced a value equal to the one it had (its subscribers and
        /// dependents were told for nothing).
        package var wasted = 0
        /// Subscribers its changes told (one per subscriber per transaction).
        package var notifications = 0
    }

    /// One of the slowest transactions.
    package struct TransactionCost: Encodable, Equatable, Sendable {
        /// The step.
        package var step: Int
        /// Why it happened.
        package var cause: String
        /// The write site.
        package var at: String?
        /// From its start to the end of its last subscriber.
        package var totalNs: Int
        package var runtimeNs: Int
        package var observersNs: Int
        package var effectsNs: Int
        package var subscribersNs: Int
        /// Atom evaluations it ran.
        package var evaluations: Int
        /// Its slowest atom by self time, if it evaluated any.
        package var slowestAtom: String?
    }

    /// An asynchronous atom's task that ended in the steps profiled.
    package struct TaskCost: Encodable, Equatable, Sendable {
        /// The atom.
        package var atom: String
        /// Nanoseconds from the start of recording to the task's start, and to its end.
        package var startNs: Int
        package var endNs: Int
        /// `result` (committed, at `step`) or `dropped`.
        package var outcome: String
        /// The transaction that committed its result, or the one that reported it dropped.
        package var step: Int
    }

    /// The first and last steps profiled.
    package var from: Int
    package var to: Int
    package var totals = Totals()
    /// Atoms by self time, most first (then by name).
    package var atoms: [AtomCost] = []
    /// The slowest transactions, slowest first (then by step).
    package var slowest: [TransactionCost] = []
    /// Tasks in the order they ended.
    package var tasks: [TaskCost] = []

    /// The profile of `timed`, keeping only the atoms in `selected` (and the transactions
    /// that evaluated one) when given; `slowest` transactions are listed.
    package init(_ timed: TimedSteps, selecting selected: Set<Int>? = nil, slowest: Int = 10) {
        from = timed.steps.lowerBound
        to = timed.steps.upperBound
        // One atom across its numbers (released, then declared again under a new one): each
        // number is looked up once, then its slot in `costs` by number.
        var costs: [AtomCost] = []
        var slotOfIdentity: [String: Int] = [:]
        // By number: an array for the numbers a journal gives (small, dense), a dictionary
        // for any other.
        var slotByNumber: [Int] = []
        var slotOfNumber: [Int: Int] = [:]
        func slot(_ id: Int) -> Int {
            let dense = id >= 0 && id < 1 << 20
            if dense, id < slotByNumber.count, slotByNumber[id] >= 0 { return slotByNumber[id] }
            if !dense, let slot = slotOfNumber[id] { return slot }
            let identity = timed.declarations[id]?.identityKey ?? "#\(id)"
            let slot = slotOfIdentity[identity] ?? costs.count
            if slot == costs.count { costs.append(AtomCost(atom: timed.name(id))) }
            slotOfIdentity[identity] = slot
            if dense {
                if id >= slotByNumber.count { slotByNumber += repeatElement(-1, count: id + 1 - slotByNumber.count) }
                slotByNumber[id] = slot
            } else {
                slotOfNumber[id] = slot
            }
            return slot
        }
        // The slowest ones, kept as they come (slowest first, then by step): a transaction's
        // row is built only when it ranks, not once for every transaction and sorted.
        let keep = max(0, slowest)
        var kept: [TransactionCost] = []
        kept.reserveCapacity(keep + 1)
        for transaction in timed.transactions {
            let timing = transaction.timing
            // One evaluation (most transactions) nests nothing: no tree to build.
            let evaluations = timing.evaluations.count > 1 ? EvaluationTree(timing.evaluations) : nil
            let touches = selected.map { selected in
                timing.evaluations.contains { selected.contains($0.atom) }
                    || timing.notified.contains { selected.contains($0.atom) }
            } ?? true
            guard touches else { continue }
            totals.transactions += 1
            // Wrapping: a damaged timing line's numbers give nonsense, not a trap.
            totals.runtimeNs &+= timing.runtime
            totals.observersNs &+= timing.observers
            totals.effectsNs &+= timing.effects
            totals.subscribersNs &+= timing.subscribers
            var slowestSelf: (atom: Int, ns: Int)?
            for (index, evaluation) in timing.evaluations.enumerated() {
                let selfNs = evaluations?.selfTime(of: index) ?? max(0, evaluation.duration)
                if slowestSelf.map({ selfNs > $0.ns }) ?? true { slowestSelf = (evaluation.atom, selfNs) }
                guard selected?.contains(evaluation.atom) ?? true else { continue }
                let atom = slot(evaluation.atom)
                costs[atom].evaluations += 1
                // Nested evaluations of the same atom (a cycle cannot happen) count once in total.
                costs[atom].totalNs &+= evaluations?.isNestedInSameAtom(index) == true ? 0 : evaluation.duration
                costs[atom].selfNs &+= selfNs
                costs[atom].maxNs = max(costs[atom].maxNs, evaluation.duration)
                let wasted = transaction.unchanged.contains(evaluation.atom)
                costs[atom].wasted += wasted ? 1 : 0
                totals.evaluations += 1
                totals.wasted += wasted ? 1 : 0
            }
            for notified in timing.notified where selected?.contains(notified.atom) ?? true {
                costs[slot(notified.atom)].notifications += notified.count
            }
            for task in timing.tasks where selected?.contains(task.atom) ?? true {
                tasks.append(TaskCost(atom: timed.name(task.atom), startNs: task.start, endNs: task.end, outcome: task.committed ? "result" : "dropped", step: transaction.step))
            }
            // Steps come in order: a later step of an equal time ranks after the ones kept.
            if keep > 0, kept.count < keep || transaction.duration > kept[kept.count - 1].totalNs {
                let cost = TransactionCost(
                    step: transaction.step, cause: transaction.cause, at: transaction.at, totalNs: transaction.duration,
                    runtimeNs: timing.runtime, observersNs: timing.observers, effectsNs: timing.effects, subscribersNs: timing.subscribers,
                    evaluations: timing.evaluations.count, slowestAtom: slowestSelf.map { timed.name($0.atom) }
                )
                kept.insert(cost, at: kept.firstIndex { $0.totalNs < cost.totalNs } ?? kept.count)
                if kept.count > keep { kept.removeLast() }
            }
        }
        atoms = costs.sorted { ($0.selfNs, $1.atom) > ($1.selfNs, $0.atom) }
        self.slowest = kept
    }
}

/// The nesting of one transaction's evaluations, from their depths (each evaluation's
/// children are the next ones one level deeper, up to the next at its own depth or above).
struct EvaluationTree {
    private let evaluations: [TimingLine.Evaluation]
    /// For each evaluation, its parent's index.
    private let parents: [Int?]

    init(_ evaluations: [TimingLine.Evaluation]) {
        self.evaluations = evaluations
        var parents: [Int?] = []
        var open: [Int] = []
        for (index, evaluation) in evaluations.enumerated() {
            while let last = open.last, evaluations[last].depth >= evaluation.depth {
                open.removeLast()
            }
            parents.append(open.last)
            open.append(index)
        }
        self.parents = parents
    }

    /// Its duration less its direct children's.
    func selfTime(of index: Int) -> Int {
        var children = 0
        var next = index + 1
        while next < evaluations.count, evaluations[next].depth > evaluations[index].depth {
            if parents[next] == index { children &+= evaluations[next].duration }
            next += 1
        }
        return max(0, evaluations[index].duration &- children)
    }

    /// Whether an evaluation of the same atom encloses it.
    func isNestedInSameAtom(_ index: Int) -> Bool {
        var parent = parents[index]
        while let current = parent {
            if evaluations[current].atom == evaluations[index].atom { return true }
            parent = parents[current]
        }
        return false
    }
}
