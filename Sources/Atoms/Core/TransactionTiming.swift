/// What one committed transaction cost, measured on ``MonotonicClock``: the time spent in the
/// runtime, in transaction observers, in effects and in subscribers, and each event inside it
/// (atom evaluations, effect runs, subscribers told, asynchronous tasks that ended), as raw
/// clock stamps and integers in a list of words reused from one transaction to the next.
///
/// Nothing here refers to a node or a location: an atom is its node's serial (unique in the
/// store, never reused), declared with its identity the first time the timer meets the node
/// in its slot; a subscriber is its location's number, declared the first time it is told.
/// So a timed transaction allocates nothing and retains nothing once the lists have grown,
/// and what the journal recorder takes from it is plain integers (``TimingWord``).
///
/// The store measures this only while someone observes timings (the journal recorder, through
/// ``AtomStore/observeTimings(_:)``), and reports it once the transaction's subscribers were
/// told, which is after the transaction itself was reported: transactions that subscribers
/// started meanwhile are reported (and timed) before it.
@MainActor
package final class TransactionTiming {
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
    /// The events, in the order they happened, as ``TimingWord`` records.
    @exclusivity(unchecked) package internal(set) var words = WordBuffer()
    /// The identities of the atoms declared in `words`, in order.
    @exclusivity(unchecked) package internal(set) var atoms: [AtomIdentity] = []
    /// The locations declared in `words`, in order.
    @exclusivity(unchecked) package internal(set) var locations: [SourceLocation] = []
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

    /// An effect event of the atom with serial `atom` ran, since the previous mark.
    func ranEffect(of atom: UInt64) {
        mark = MonotonicClock.now()
        effectsEnd = mark
        words.append(TimingWord.effect)
        words.append(atom)
        words.append(mark)
    }

    /// The subscriber created at location number `location` was told, since the previous mark.
    func notifiedSubscriber(at location: UInt64) {
        mark = MonotonicClock.now()
        words.append(TimingWord.subscriber)
        words.append(location)
        words.append(mark)
    }

    /// The atom with serial `atom` told `count` subscribers of its change.
    func notified(_ atom: UInt64, count: Int) {
        words.append(TimingWord.notified)
        words.append(atom)
        words.append(UInt64(count))
    }

    /// Declares an atom's serial with its identity.
    func declare(_ atom: UInt64, slot: Int, identity: AtomIdentity) {
        words.append(TimingWord.atom)
        words.append(atom)
        words.append(UInt64(slot))
        atoms.append(identity)
    }

    /// Declares a location's number.
    func declare(location: UInt64, _ value: SourceLocation) {
        words.append(TimingWord.location)
        words.append(location)
        locations.append(value)
    }

    /// Appends the finished timing to `words` (a ``TimingWord/transaction`` record, then the
    /// events) and its declared atoms and locations to theirs. Done here, in the module that
    /// owns the fields, so that reading them needs no dynamic exclusivity check.
    package func append(to words: inout WordBuffer, atoms: inout [AtomIdentity], locations: inout [SourceLocation]) {
        words.append(TimingWord.transaction)
        words.append(UInt64(sequence))
        words.append(start == 0 ? commitStart : start)
        words.append(commitStart)
        words.append(observersEnd)
        words.append(effectsEnd)
        words.append(end)
        words.append(UInt64(self.words.count))
        if !self.words.isEmpty { words.append(contentsOf: self.words.words) }
        if !self.atoms.isEmpty { atoms.append(contentsOf: self.atoms) }
        if !self.locations.isEmpty { locations.append(contentsOf: self.locations) }
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
        words.removeAll()
        if !atoms.isEmpty { atoms.removeAll(keepingCapacity: true) }
        if !locations.isEmpty { locations.removeAll(keepingCapacity: true) }
    }
}

/// The records of ``TransactionTiming/words``: a kind, then its fields. Stamps are raw
/// ``MonotonicClock`` readings; atoms are node serials, declared (``atom``) before the first
/// record that names them; locations are numbers, declared (``location``) likewise.
package enum TimingWord {
    /// `transaction, seq, start, commitStart, observersEnd, effectsEnd, end, count`: a
    /// transaction's timing (``TransactionTiming/append(to:atoms:locations:)``), whose
    /// events are the `count` words after it.
    package static let transaction: UInt64 = 0
    /// `evaluation, atom, start, end, depth`: one run of an atom's computation; `depth` counts
    /// the evaluations enclosing it.
    package static let evaluation: UInt64 = 1
    /// `effect, atom, end`: an effect event, from the previous effect's end (the observers'
    /// end for the first).
    package static let effect: UInt64 = 2
    /// `subscriber, location, end`: a subscriber told, from the previous one's end (the
    /// effects' end for the first).
    package static let subscriber: UInt64 = 3
    /// `notified, atom, count`: a changed atom told `count` subscribers.
    package static let notified: UInt64 = 4
    /// `task, atom, start, end, committed`: an asynchronous task ended (`committed` 1 when
    /// its result is committed in this transaction, 0 when it was dropped).
    package static let task: UInt64 = 5
    /// `atom, serial, slot`: the next identity of ``TransactionTiming/atoms`` is serial's.
    package static let atom: UInt64 = 6
    /// `location, number`: the next location of ``TransactionTiming/locations`` is number's.
    package static let location: UInt64 = 7

    /// How many words a record of `kind` takes, its kind included.
    package static func length(of kind: UInt64) -> Int {
        switch kind {
        case evaluation, task: 5
        case effect, subscriber, notified, atom: 3
        case location: 2
        case transaction: 8
        default: 1
        }
    }
}

/// The store's timer: the timing of the transaction open now, while someone observes timings.
@MainActor
final class TransactionTimer {
    /// The transaction being timed; replaced when one commits.
    @exclusivity(unchecked) private(set) var current = TransactionTiming()
    /// The evaluations running now (the index of each one's record in `current.words`).
    @exclusivity(unchecked) private var running: [Int] = []
    @exclusivity(unchecked) private var observers: [@MainActor (TransactionTiming) -> Void] = []
    /// The serial declared for each node slot (0: none yet).
    @exclusivity(unchecked) private var declared: [Int] = []
    /// The locations numbered so far (number − 1 is the index), and their numbers.
    @exclusivity(unchecked) private var locations: [SourceLocation] = []
    @exclusivity(unchecked) private var locationNumbers: [SourceLocation: Int] = [:]
    /// Whether the next transaction declares every location again (an observer was added).
    @exclusivity(unchecked) private var redeclaresLocations = false

    nonisolated init() {}

    /// Adds an observer, called with each finished transaction's timing. Atoms and locations
    /// are declared again from now on, for the new observer.
    func addObserver(_ observer: @escaping @MainActor (TransactionTiming) -> Void) {
        observers.append(observer)
        declared.removeAll()
        redeclaresLocations = !locations.isEmpty
    }

    /// The outermost `begin` of a transaction.
    func began() {
        current.start = MonotonicClock.now()
    }

    /// The serial naming `node` in `timing`'s records, declared there the first time the
    /// timer meets the node; 0 for a node that has no slot (an atom read without caching).
    private func atom(_ node: AnyAtomNode, in timing: TransactionTiming) -> UInt64 {
        let slot = node.id
        guard slot >= 0 else { return 0 }
        if slot >= declared.count {
            declared.append(contentsOf: repeatElement(0, count: slot - declared.count + 1))
        }
        if declared[slot] != node.serial {
            declared[slot] = node.serial
            timing.declare(UInt64(node.serial), slot: slot, identity: node.identity)
        }
        return UInt64(node.serial)
    }

    /// An evaluation starts; returns its token for ``evaluationEnded(_:)``.
    func evaluationStarted(_ node: AnyAtomNode) -> Int {
        let serial = atom(node, in: current)
        let index = current.words.count
        current.words.append(TimingWord.evaluation)
        current.words.append(serial)
        current.words.append(MonotonicClock.now())
        current.words.append(0)
        current.words.append(UInt64(running.count))
        running.append(index)
        return index
    }

    /// The evaluation `token` ended.
    func evaluationEnded(_ token: Int, of node: AnyAtomNode) {
        let now = MonotonicClock.now()
        running.removeLast()
        // The transaction it belonged to may have committed meanwhile (nothing does so today).
        let words = current.words.count
        if token + 4 < words, current.words[token] == TimingWord.evaluation, current.words[token + 1] == UInt64(node.serial) {
            current.words[token + 3] = now
        }
    }

    /// The atom `node` told `count` subscribers of its change, in the open transaction.
    func notified(_ node: AnyAtomNode, count: Int) {
        current.notified(atom(node, in: current), count: count)
    }

    /// An effect event of `node` ran, after `timing`'s commit.
    func ranEffect(of node: AnyAtomNode, in timing: TransactionTiming) {
        timing.ranEffect(of: atom(node, in: timing))
    }

    /// `subscriber` was told, after `timing`'s commit.
    func notified(_ subscriber: SubscriberState, in timing: TransactionTiming) {
        var number = subscriber.timingLocation
        if number == 0 || redeclaresLocations {
            number = self.number(of: subscriber.location, in: timing)
            subscriber.timingLocation = number
        }
        timing.notifiedSubscriber(at: UInt64(number))
    }

    /// The number of `location`, declared in `timing` when it is new (or every location
    /// is declared again).
    private func number(of location: SourceLocation, in timing: TransactionTiming) -> Int {
        if redeclaresLocations {
            redeclaresLocations = false
            for (index, known) in locations.enumerated() {
                timing.declare(location: UInt64(index + 1), known)
            }
        }
        if let number = locationNumbers[location] {
            return number
        }
        locations.append(location)
        locationNumbers[location] = locations.count
        timing.declare(location: UInt64(locations.count), location)
        return locations.count
    }

    /// A task that began at `start` ended: its result is committed in the open transaction,
    /// or dropped (then reported with the next transaction).
    func taskEnded(_ node: AnyAtomNode, start: UInt64, committed: Bool) {
        guard start != 0, !node.isTransient else { return }
        let serial = atom(node, in: current)
        current.words.append(TimingWord.task)
        current.words.append(serial)
        current.words.append(start)
        current.words.append(MonotonicClock.now())
        current.words.append(committed ? 1 : 0)
    }

    /// The transaction committed nothing: its evaluations are forgotten, the tasks that ended
    /// (and every declaration, which the timer will not make again) wait for the next one.
    func discard() {
        let timing = current
        var read = 0
        var write = 0
        let total = timing.words.count
        while read < total {
            let kind = timing.words[read]
            let length = TimingWord.length(of: kind)
            if kind == TimingWord.task || kind == TimingWord.atom || kind == TimingWord.location {
                for offset in 0..<length {
                    timing.words[write + offset] = timing.words[read + offset]
                }
                write += length
            }
            read += length
        }
        timing.words.truncate(to: write)
        timing.start = 0
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
        for index in observers.indices {
            observers[index](timing)
        }
        timing.reset()
        spare.append(timing)
    }
}
