import Atoms

/// Builds the packed timing lines (``PackedTimingLine``) from a transaction's timing records
/// (``TimingWord``), on the recorder's thread: node serials become the journal's atom numbers,
/// the timer's location numbers the journal's `loc` numbers (a `loc` line comes first for a
/// new one), clock stamps become nanoseconds from the transaction's start.
struct TimingLineBuilder: Sendable {
    /// How many transactions back a timing line may name its transaction (a reader keeps as
    /// many).
    static let keptOrigins = 64
    /// The atoms timed by node serial, the serial in each node slot, the timer's locations by
    /// its number.
    private var timedAtoms: [Int: AtomIdentity] = [:]
    private var timedSlots: [Int: Int] = [:]
    /// The journal's number of a timed node serial, found through its identity, with the
    /// mirror's forget epoch then: a number is forgotten only with a new epoch (an identity's
    /// lookup hashes its strings, on every evaluation timed).
    private var timedNumbers: [Int: (id: Int, epoch: Int)] = [:]
    private var timedLocations: [Int: SourceLocation] = [:]
    /// The journal's `loc` number of each timer's location number, once known (a location
    /// is hashed once, not at every subscriber told).
    private var timedLocationIDs: [Int: Int] = [:]
    /// The segment's timing lines' recent shapes (a line that has one names it).
    private var shapes = PackedTimingLine.RecentShapes()
    /// The origins of the last transactions written.
    private var recentOrigins: [(seq: Int, origin: Int)] = []
    /// The line being built (its lists keep their capacity).
    private var line = CompactTimingLine()
    private var notified: [CompactTimingLine.Run] = []

    /// A new segment starts: its first timing line has its shape, so a reader may start there.
    mutating func startSegment() {
        shapes = .init()
    }

    /// Transaction `seq` was written with `origin`: what its timing line, written later,
    /// counts from.
    mutating func noteOrigin(seq: Int, origin: Int) {
        if recentOrigins.count == Self.keptOrigins { recentOrigins.removeFirst() }
        recentOrigins.append((seq, origin))
    }

    /// Appends a packed timing line for each timing staged at `timings`, naming atoms by the
    /// mirror's numbers (`state`) and locations by `locations` (a `loc` line first for a new
    /// one).
    mutating func appendLines(
        for timings: StagedTimings, in batch: CaptureStaging, state: RecordedState, locations: inout SourceLocationNumbers,
        to output: inout [UInt8]
    ) {
        var atomIndex = timings.atoms
        var locationIndex = timings.locations
        var index = timings.words.lowerBound
        while index + 8 <= timings.words.upperBound {
            let count = Int(batch.timingWords[index + 7])
            appendLine(
                words: batch.timingWords.words, at: index, in: batch, atomIndex: &atomIndex, locationIndex: &locationIndex,
                state: state, locations: &locations, to: &output
            )
            index += 8 + count
        }
    }

    /// Appends the line for the timing whose `transaction` record is at `words[index]`.
    private mutating func appendLine(
        words: UnsafeBufferPointer<UInt64>, at index: Int, in batch: CaptureStaging, atomIndex: inout Int, locationIndex: inout Int,
        state: RecordedState, locations: inout SourceLocationNumbers, to output: inout [UInt8]
    ) {
        let seq = Int(words[index + 1])
        let start = words[index + 2]
        let commitStart = words[index + 3]
        let observersEnd = words[index + 4]
        let effectsEnd = words[index + 5]
        let end = index + 8 + Int(words[index + 7])
        func since(_ time: UInt64) -> Int { time > start ? Int(time &- start) : 0 }
        func duration(_ from: UInt64, _ to: UInt64) -> Int { to > from ? Int(to &- from) : 0 }
        // Emptied only when not empty: most lines have no tasks, effects or locations, and
        // emptying an empty list still costs a uniqueness check and a call.
        if !line.locations.isEmpty { line.locations.removeAll(keepingCapacity: true) }
        if !line.evaluations.isEmpty { line.evaluations.removeAll(keepingCapacity: true) }
        if !line.effects.isEmpty { line.effects.removeAll(keepingCapacity: true) }
        if !line.subscribers.isEmpty { line.subscribers.removeAll(keepingCapacity: true) }
        if !line.tasks.isEmpty { line.tasks.removeAll(keepingCapacity: true) }
        line.notified = nil
        if !notified.isEmpty { notified.removeAll(keepingCapacity: true) }
        line.runtime = since(commitStart)
        line.observers = duration(commitStart, observersEnd)
        var effectMark = observersEnd
        var subscriberMark = effectsEnd
        var position = index + 8
        while position < end {
            let kind = words[position]
            switch kind {
            case TimingWord.atom:
                let serial = Int(words[position + 1])
                let slot = Int(words[position + 2])
                if let old = timedSlots[slot], old != serial {
                    timedAtoms[old] = nil
                    timedNumbers[old] = nil
                }
                timedSlots[slot] = serial
                timedAtoms[serial] = batch.timingAtoms[atomIndex]
                timedNumbers[serial] = nil
                atomIndex += 1
            case TimingWord.location:
                timedLocations[Int(words[position + 1])] = batch.timingLocations[locationIndex]
                timedLocationIDs[Int(words[position + 1])] = nil
                locationIndex += 1
            case TimingWord.evaluation:
                if let atom = timedAtom(words[position + 1], state: state) {
                    let evaluationStart = words[position + 2]
                    line.evaluations.append(TimingLine.Evaluation(atom: atom, start: since(evaluationStart), duration: duration(evaluationStart, words[position + 3]), depth: Int(words[position + 4])))
                }
            case TimingWord.effect:
                // Unknown atoms stay (as 0): the next effect starts where this one ended.
                line.effects.append(.init(timedAtom(words[position + 1], state: state) ?? 0, duration(effectMark, words[position + 2])))
                effectMark = words[position + 2]
            case TimingWord.subscriber:
                let number = Int(words[position + 1])
                let location: Int
                if let known = timedLocationIDs[number] {
                    location = known
                } else if let at = timedLocations[number] {
                    location = locations.subscriber(at, lines: &output)
                    timedLocationIDs[number] = location
                } else {
                    // A location the timer never declared (none, as recorded).
                    location = 0
                }
                line.subscribers.append(.init(location, duration(subscriberMark, words[position + 2])))
                subscriberMark = words[position + 2]
            case TimingWord.notified:
                if let atom = timedAtom(words[position + 1], state: state) {
                    notified.append(.init(atom, Int(words[position + 2])))
                }
            case TimingWord.task:
                if let atom = timedAtom(words[position + 1], state: state) {
                    // Signed: a task usually began before this transaction.
                    let taskStart = Int(bitPattern: UInt(words[position + 2] &- start))
                    let taskEnd = Int(bitPattern: UInt(words[position + 3] &- start))
                    line.tasks.append(TimingLine.TaskSpan(atom: atom, start: taskStart, end: taskEnd, committed: words[position + 4] != 0))
                }
            default:
                break
            }
            position += TimingWord.length(of: kind)
        }
        // The transaction timed, counted back from the last one written; a timing whose
        // transaction is not among the last ones (or was never written) has no line.
        guard let origin = recentOrigins.last(where: { $0.seq == seq })?.origin,
            let last = recentOrigins.last?.seq
        else { return }
        line.back = last - seq
        // Without `n`, the origin told every subscriber listed.
        let isDefault = line.subscribers.isEmpty
            ? notified.isEmpty
            : origin != 0 && notified.count == 1 && notified[0].subject == origin && notified[0].value == line.subscribers.count
        if !isDefault { line.notified = notified }
        PackedTimingLine.append(line, shapes: &shapes, to: &output)
        line.notified = nil
    }

    /// The journal's number for the atom timed as node serial `serial`, if it has one.
    private mutating func timedAtom(_ serial: UInt64, state: RecordedState) -> Int? {
        guard serial != 0 else { return nil }
        let epoch = state.forgetEpoch
        if let known = timedNumbers[Int(serial)], known.epoch == epoch { return known.id }
        guard let identity = timedAtoms[Int(serial)], let id = state.ids[identity] else { return nil }
        timedNumbers[Int(serial)] = (id, epoch)
        return id
    }
}
