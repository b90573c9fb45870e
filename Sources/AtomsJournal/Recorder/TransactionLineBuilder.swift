import Atoms
import Foundation

/// Turns captured transactions into journal lines (format 4): a location line the first time a
/// location appears, one compact transaction line, and keyframes (see `appendLines`). For a
/// bounded journal it also decides when a new segment starts, and builds its opening lines.
/// Runs on the recorder's thread; owns the mirror of the recorded state.
struct TransactionLineBuilder: Sendable {
    private var state = RecordedState()
    private let keyframeInterval: Int
    /// The monotonic clock's reading when recording started: transactions' times count from it.
    private let clockStart: UInt64
    private let encoder = ValueEncoder()
    private var transactionsSinceKeyframe = 0
    private var locationIDs: [SourceLocation: Int] = [:]
    /// The location numbered last, with its number.
    private var lastLocation: (location: SourceLocation, id: Int)?
    /// Reused for each transaction line, and its time, keeping their capacity.
    private var lineBuffer: [UInt8] = []
    private var timeBuffer: [UInt8] = []

    private let differ = ValueDiffer()
    /// Timing: the atoms timed by node serial, the serial in each node slot, the timer's
    /// locations by its number, the segment's timing lines' recent shapes (a line that has one
    /// names it), the origins of the last transactions, and the line being
    /// built (its lists keep their capacity).
    fileprivate var timedAtoms: [Int: AtomIdentity] = [:]
    fileprivate var timedSlots: [Int: Int] = [:]
    /// The journal's number of a timed node serial, found through its identity, with the
    /// mirror's forget epoch then: a number is forgotten only with a new epoch (an identity's
    /// lookup hashes its strings, on every evaluation timed).
    fileprivate var timedNumbers: [Int: (id: Int, epoch: Int)] = [:]
    fileprivate var timedLocations: [Int: SourceLocation] = [:]
    /// The journal's `loc` number of each timer's location number, once known (a location
    /// is hashed once, not at every subscriber told).
    fileprivate var timedLocationIDs: [Int: Int] = [:]
    fileprivate var timingShapes = PackedTimingLine.RecentShapes()
    fileprivate var recentOrigins: [(seq: Int, origin: Int)] = []
    private var timingScratch = TimingBuilder()
    /// Bytes of transaction lines since the last keyframe, and the size of that keyframe.
    private var bytesSinceKeyframe = 0
    private var keyframeBytes = 0

    /// The header every segment starts with.
    private var header: JournalHeaderLine
    /// For a bounded journal: the size at which a new segment starts.
    private let segmentSize: Int?
    /// Bytes written to the current segment so far.
    private var segmentBytes = 0
    /// The current segment's number (from 1).
    private var segment = 1
    /// The opening lines of a segment that starts after the last transaction appended.
    private var pendingSegment: [UInt8]?
    /// The last step recorded (transaction or starting keyframe) and its time.
    private var lastStep = 0
    private var lastTimestamp: UInt64

    init(keyframeInterval: Int, clockStart: UInt64, header: JournalHeaderLine, segmentSize: Int? = nil) {
        self.keyframeInterval = keyframeInterval
        self.clockStart = clockStart
        self.header = header
        self.segmentSize = segmentSize
        lastTimestamp = clockStart
    }

    /// The first segment's (or the unbounded journal's) header and keyframe, each ending in a
    /// newline, for the state seeded; recording starts at step `seq`.
    mutating func opening(seq: Int) -> [UInt8] {
        lastStep = seq
        header.startStep = seq
        return openingLines(seq: seq)
    }

    private mutating func openingLines(seq: Int) -> [UInt8] {
        // A segment's first timing line has its shape: a reader may start there.
        timingShapes = .init()
        var lines = Array(header.line(segment: segmentSize == nil ? nil : segment).utf8)
        lines.append(0x0A)
        lines.append(contentsOf: keyframe(seq: seq).utf8)
        lines.append(0x0A)
        segmentBytes = lines.count
        return lines
    }

    /// The opening lines of a segment to start after the transactions appended so far, once:
    /// the caller hands what it holds to the sink first, then these as the new segment.
    mutating func takeSegmentOpening() -> [UInt8]? {
        defer { pendingSegment = nil }
        return pendingSegment
    }

    /// The end line, written when the recorder closes the journal, with its newline.
    func endLine() -> [UInt8] {
        var time: [UInt8] = []
        appendMilliseconds(since: max(lastTimestamp, MonotonicClock.now()), to: &time)
        var bytes = Array(EndRecord.line(seq: lastStep, time: time).utf8)
        bytes.append(0x0A)
        return bytes
    }

    // MARK: Seeding

    /// Records the state the store had when recording started (before any line is written).
    mutating func seed(
        values: [(AtomIdentity, RecordedValue)],
        edges: [(dependency: AtomIdentity, dependent: AtomIdentity)],
        subscriptions: [(atom: AtomIdentity, location: SourceLocation)]
    ) {
        for (atom, value) in values {
            state.values[state.id(of: atom).0] = value
        }
        _ = state.changeEdges(
            added: edges.map { EdgeEntry(from: state.id(of: $0.dependency).0, to: state.id(of: $0.dependent).0) },
            removed: []
        )
        _ = state.changeSubscriptions(
            added: subscriptions.map { SubscriptionEntry(atom: state.id(of: $0.atom).0, at: $0.location.description) },
            removed: []
        )
    }

    /// How much the mirror of the recorded state holds.
    var mirrorSizes: RecorderMirrorSizes {
        state.sizes
    }

    /// The values the mirror let go of since the last call (``ValueTable/takeRetired()``).
    mutating func takeRetired() -> [Any] {
        state.values.takeRetired()
    }

    /// The keyframe of the current state, after transaction `seq`; the next one is weighed
    /// against it.
    mutating func keyframe(seq: Int) -> String {
        let keyframe = state.keyframe(seq: seq, encoder: encoder, differ: differ, locations: locationIDs)
        transactionsSinceKeyframe = 0
        bytesSinceKeyframe = 0
        keyframeBytes = keyframe.utf8.count
        return keyframe
    }

    // MARK: Transactions

    /// Appends the lines for a transaction (whose changed values are in `batch.changes`) or
    /// for timings (whose records are in `batch.timingWords`).
    mutating func appendLines(for item: RecordingPipeline.Item, in batch: CaptureStaging, to output: inout [UInt8]) {
        switch item {
        case .transaction(let transaction, let timings):
            if let timings { appendTimingLines(for: timings, in: batch, to: &output) }
            appendLines(for: transaction, changes: batch.changes[transaction.changes], to: &output)
        case .timing(let timings): appendTimingLines(for: timings, in: batch, to: &output)
        }
    }

    /// Appends a packed timing line for each timing staged at `timings`.
    mutating func appendTimingLines(for timings: StagedTimings, in batch: CaptureStaging, to output: inout [UInt8]) {
        // Moved out and back (its lists keep their capacity), not copied: a copy retains and
        // releases each list on every transaction.
        var timing = TimingBuilder()
        swap(&timing, &timingScratch)
        timing.atomIndex = timings.atoms
        timing.locationIndex = timings.locations
        var index = timings.words.lowerBound
        while index + 8 <= timings.words.upperBound {
            let count = Int(batch.timingWords[index + 7])
            let before = output.count
            timing.appendLine(words: batch.timingWords.words, at: index, in: batch, builder: &self, to: &output)
            segmentBytes += output.count - before
            index += 8 + count
        }
        swap(&timing, &timingScratch)
    }

    /// Appends the lines recording one transaction, in order, each ending in a newline.
    /// `changes` is the transaction's range of the staged changes, indexed as they are.
    mutating func appendLines(for transaction: CapturedTransaction, changes: ArraySlice<CapturedChange>, to output: inout [UInt8]) {
        differ.beginTransaction()
        let outputBefore = output.count
        defer {
            segmentBytes += output.count - outputBefore
            lastStep = transaction.sequence
            lastTimestamp = transaction.timestamp
            if let segmentSize, segmentBytes >= segmentSize {
                // A new segment stands alone: its header, then a keyframe of the whole state.
                segment += 1
                pendingSegment = openingLines(seq: transaction.sequence)
            }
        }
        var declarations: [String] = []
        func id(_ atom: AtomIdentity) -> Int {
            let (id, declaration) = state.id(of: atom)
            if let declaration { declarations.append(declaration) }
            return id
        }
        // Most transactions only change values; they skip the graph bookkeeping below.
        let graph = transaction.graph

        // Net creations and releases against the mirror: an atom created and released in one
        // transaction is neither.
        var liveness: [Int: (was: Bool, now: Bool)] = [:]
        if let graph {
            for atom in graph.created {
                let atomID = id(atom)
                liveness[atomID] = (liveness[atomID]?.was ?? state.values.contains(atomID), true)
            }
            for atom in graph.released {
                let atomID = id(atom)
                liveness[atomID] = (liveness[atomID]?.was ?? state.values.contains(atomID), false)
            }
        }
        func isLive(_ atomID: Int) -> Bool {
            (graph == nil ? nil : liveness[atomID]?.now) ?? state.values.contains(atomID)
        }

        var edges: (added: [EdgeEntry], removed: [EdgeEntry]) = ([], [])
        var subscriptions: (added: [SubscriptionEntry], removed: [SubscriptionEntry]) = ([], [])
        // The subscribers' locations by their text, as the mirror's entries spell them.
        var subscriberLocations: [String: SourceLocation] = [:]
        if let graph {
            let edgesAdded = graph.edgesAdded.map { EdgeEntry(from: id($0.dependency), to: id($0.dependent)) }
            let edgesRemoved = graph.edgesRemoved.map { EdgeEntry(from: id($0.dependency), to: id($0.dependent)) }
            edges = state.changeEdges(added: edgesAdded, removed: edgesRemoved)
            let subscriptionsAdded = graph.subscriptionsAdded.map { SubscriptionEntry(atom: id($0.atom), at: $0.location.description) }
            let subscriptionsRemoved = graph.subscriptionsRemoved.map { SubscriptionEntry(atom: id($0.atom), at: $0.location.description) }
            subscriptions = state.changeSubscriptions(added: subscriptionsAdded, removed: subscriptionsRemoved)
            if !subscriptions.added.isEmpty || !subscriptions.removed.isEmpty {
                for change in graph.subscriptionsAdded + graph.subscriptionsRemoved {
                    subscriberLocations[change.location.description] = change.location
                }
            }
        }

        // A new location's `loc` line comes before the transaction that first uses it: the
        // write site's first, then the subscribers' (named by number, as write sites are).
        let location = locationID(transaction.location, lines: &output)
        func subscriptionJSON(_ subscription: SubscriptionEntry) -> String {
            // Every entry the mirror returns came from this transaction's lists; spelled out
            // otherwise, which every reader reads too.
            guard let known = subscriberLocations[subscription.at] else { return subscription.json }
            return SubscriptionEntry.json(atom: subscription.atom, location: locationID(subscriber: known, lines: &output))
        }
        let subscriptionsAdded = subscriptions.added.map(subscriptionJSON)
        let subscriptionsRemoved = subscriptions.removed.map(subscriptionJSON)
        let origin: Int
        switch transaction.origin {
        case .change(let index)?:
            let (originID, declaration) = state.id(of: changes[index].slot)
            if let declaration { declarations.append(declaration) }
            origin = originID
        case .atom(let atom)?:
            origin = id(atom)
        case nil:
            origin = 0
        }
        // What the transaction's timing line, written later, counts from.
        if recentOrigins.count == TimingBuilder.keptOrigins { recentOrigins.removeFirst() }
        recentOrigins.append((transaction.sequence, origin))

        // The line: `[seq,t,"cause",origin,at,[values]` then `,{graph}` when the graph changed.
        // Declarations made while writing values go into the graph part, so the line is
        // written to its own buffer first and appended after any declaration it needs.
        var line: [UInt8] = []
        swap(&line, &lineBuffer)  // reuse the buffer's capacity; it is unique while taken
        line.removeAll(keepingCapacity: true)
        var time: [UInt8] = []
        swap(&time, &timeBuffer)  // unique while taken: emptying it keeps its storage
        time.removeAll(keepingCapacity: true)
        appendMilliseconds(since: transaction.timestamp, to: &time)
        TransactionLine.appendEnvelope(seq: transaction.sequence, time: time, cause: transaction.cause.rawValue, origin: origin, at: location, to: &line)
        let timeBytes = time.count
        timeBuffer = time
        var valueCount = 0
        for change in changes {
            let (atomID, declaration) = state.id(of: change.slot)
            if let declaration { declarations.append(declaration) }
            guard isLive(atomID) else { continue }
            if valueCount > 0 { line.append(UInt8(ascii: ",")) }
            valueCount += 1
            let isNew = graph != nil && liveness[atomID]?.was == false
            appendEntry(id: atomID, change: change, isNew: isNew, to: &line)
        }
        line.append(UInt8(ascii: "]"))

        var created: [Int] = []
        var released: [Int] = []
        if let graph {
            // Created and released atoms, in the order the store reported them.
            created = graph.created.compactMap { state.ids[$0] }.uniqued().filter {
                liveness[$0].map { !$0.was && $0.now } ?? false
            }
            released = graph.released.compactMap { state.ids[$0] }.uniqued().filter {
                liveness[$0].map { $0.was && !$0.now } ?? false
            }
            for atomID in liveness.keys where liveness[atomID]?.now == false {
                state.values[atomID] = nil
            }
            for atom in graph.released {
                state.forgetInstance(of: atom)
            }
        }

        if let graph = TransactionLine.graphChanges(
            declare: declarations, created: created, released: released,
            edgesAdded: edges.added.map(\.json), edgesRemoved: edges.removed.map(\.json),
            subsAdded: subscriptionsAdded, subsRemoved: subscriptionsRemoved
        ) {
            line.append(UInt8(ascii: ","))
            line.append(contentsOf: graph.utf8)
        }
        line.append(contentsOf: [UInt8(ascii: "]"), 0x0A])
        output.append(contentsOf: line)
        // Without the time's digits: the same transactions place keyframes at the same steps
        // in every recording, however long each one took.
        bytesSinceKeyframe += line.count - timeBytes
        swap(&line, &lineBuffer)

        transactionsSinceKeyframe += 1
        // A keyframe costs what the state weighs: it follows once the transactions since the
        // last one are at least `keyframeInterval` and weigh at least twice as much as it did,
        // so a large state with small changes is not written whole every few hundred steps
        // (keyframes stay at most a third of the journal), and reaching a step still decodes
        // at most about three keyframes' worth of bytes.
        let startsSegment = segmentSize.map { segmentBytes + output.count - outputBefore >= $0 } ?? false
        if !startsSegment && transactionsSinceKeyframe >= keyframeInterval && bytesSinceKeyframe >= 2 * keyframeBytes {
            output.append(contentsOf: keyframe(seq: transaction.sequence).utf8)
            output.append(0x0A)
        }
    }

    /// The number of a write site's source location, appending its `loc` line (with its
    /// newline) to `lines` the first time.
    private mutating func locationID(_ location: SourceLocation?, lines: inout [UInt8]) -> Int {
        guard let location else { return 0 }
        // Consecutive transactions usually come from the same place: skip hashing then.
        if let last = lastLocation, last.location == location {
            return last.id
        }
        let id = number(of: location, lines: &lines)
        lastLocation = (location, id)
        return id
    }

    /// The number of a subscriber's location, in the write sites' numbering, appending its
    /// `loc` line the first time (it leaves the write sites' last location as it was).
    fileprivate mutating func locationID(subscriber location: SourceLocation, lines: inout [UInt8]) -> Int {
        if let last = lastLocation, last.location == location {
            return last.id
        }
        return number(of: location, lines: &lines)
    }

    /// The location's number, numbering it and appending its `loc` line when it is new.
    private mutating func number(of location: SourceLocation, lines: inout [UInt8]) -> Int {
        if let known = locationIDs[location] {
            return known
        }
        let id = locationIDs.count + 1
        locationIDs[location] = id
        lines.append(contentsOf: LocationRecord.line(id: id, at: location.description).utf8)
        lines.append(0x0A)
        return id
    }

    /// Milliseconds since recording started, to the microsecond, as short as possible, for a
    /// monotonic clock stamp.
    private func appendMilliseconds(since timestamp: UInt64, to output: inout [UInt8]) {
        var micros = timestamp >= clockStart ? Int((timestamp &- clockStart + 500) / 1_000) : -Int((clockStart &- timestamp + 500) / 1_000)
        if micros < 0 {
            output.append(UInt8(ascii: "-"))
            micros = -micros
        }
        output.appendDecimal(micros / 1_000)
        var fraction = micros % 1_000
        guard fraction != 0 else { return }
        output.append(UInt8(ascii: "."))
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor = digits == 3 ? 100 : digits == 2 ? 10 : 1
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends one value entry and updates the mirror: `[id,"d",delta]` when the value is
    /// compared with the previous one as a Swift value and only the changed parts are
    /// encoded, `[id,"="]` when it is equal to it, otherwise the whole value (`[id,"v",json]`,
    /// or a keyed entry for values that are not JSON).
    private mutating func appendEntry(id: Int, change: CapturedChange, isNew: Bool, to output: inout [UInt8]) {
        let value: EncodedValue
        if let encoded = change.encoded {
            value = encoded
        } else {
            // A new atom has no previous value.
            let entry = isNew
                ? change.slot.recordNext(id: id, previous: nil, differ: differ, encoder: encoder, to: &output)
                : change.slot.recordNext(id: id, previous: state.values[id], differ: differ, encoder: encoder, to: &output)
            switch entry {
            case .written:
                state.values[id] = .slot(change.slot)
                return
            case .encoded(let encoded):
                value = encoded
            }
        }
        // Values kept as JSON: objects are compared member by member with the previous one.
        if !isNew, case .json(let bytes, let members?) = value,
            case .encoded(.json(let oldBytes, let oldMembers?))? = state.values[id],
            appendChange(MemberDelta.change(old: oldBytes, oldMembers: oldMembers, new: bytes, newMembers: members), id: id, to: &output)
        {
            state.values[id] = .encoded(value)
            return
        }
        // Any other value (an array, a dump, a phase, a redacted value) equal to the previous
        // one is an equal write, as it is for objects: every reader then counts no change.
        if !isNew, case .encoded(let old)? = state.values[id], old.isSameEncoding(as: value) {
            TransactionLine.appendUnchanged(id: id, to: &output)
            return
        }
        state.values[id] = .encoded(value)
        appendWhole(id: id, value: value, to: &output)
    }

    /// Appends `[id,"="]` or `[id,"d",delta]`; returns `false` (appending nothing) when the
    /// value is to be written whole.
    private func appendChange(_ change: ValueDiffer.Change, id: Int, to output: inout [UInt8]) -> Bool {
        switch change {
        case .unchanged: TransactionLine.appendUnchanged(id: id, to: &output)
        case .delta(let delta): TransactionLine.appendDelta(id: id, delta: delta, to: &output)
        case .replaced: return false
        }
        return true
    }

    /// Appends a whole value: `[id,"v",json]`, or a keyed entry for values that are not JSON.
    private func appendWhole(id: Int, value: EncodedValue, to output: inout [UInt8]) {
        switch value {
        case .fields(let fields): TransactionLine.appendKeyed(id: id, fields: fields.utf8, to: &output)
        case .json(let bytes, _): TransactionLine.appendWhole(id: id, json: bytes, to: &output)
        }
    }
}

/// Journal entries with a JSON form and a stable order.
protocol JSONOrdered {
    var json: String { get }
    static func precedes(_ lhs: Self, _ rhs: Self) -> Bool
}

extension EdgeEntry: JSONOrdered {}
extension SubscriptionEntry: JSONOrdered {}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

/// Builds one packed timing line (``PackedTimingLine``) from a transaction's timing records
/// (``TimingWord``), on the recorder's thread: node serials become the journal's atom numbers,
/// the timer's location numbers the journal's `loc` numbers (a `loc` line comes first for a
/// new one), clock stamps become nanoseconds from the transaction's start.
private struct TimingBuilder {
    /// How many transactions back a timing line may name its transaction (a reader keeps as
    /// many).
    static let keptOrigins = 64
    var line = CompactTimingLine()
    var notified: [CompactTimingLine.Run] = []
    /// The next declared atom and location in the batch.
    var atomIndex = 0
    var locationIndex = 0

    /// Appends the line for the timing whose `transaction` record is at `words[index]`.
    mutating func appendLine(words: UnsafeBufferPointer<UInt64>, at index: Int, in batch: CaptureStaging, builder: inout TransactionLineBuilder, to output: inout [UInt8]) {
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
                if let old = builder.timedSlots[slot], old != serial {
                    builder.timedAtoms[old] = nil
                    builder.timedNumbers[old] = nil
                }
                builder.timedSlots[slot] = serial
                builder.timedAtoms[serial] = batch.timingAtoms[atomIndex]
                builder.timedNumbers[serial] = nil
                atomIndex += 1
            case TimingWord.location:
                builder.timedLocations[Int(words[position + 1])] = batch.timingLocations[locationIndex]
                builder.timedLocationIDs[Int(words[position + 1])] = nil
                locationIndex += 1
            case TimingWord.evaluation:
                if let atom = builder.timedAtom(words[position + 1]) {
                    let evaluationStart = words[position + 2]
                    line.evaluations.append(TimingLine.Evaluation(atom: atom, start: since(evaluationStart), duration: duration(evaluationStart, words[position + 3]), depth: Int(words[position + 4])))
                }
            case TimingWord.effect:
                // Unknown atoms stay (as 0): the next effect starts where this one ended.
                line.effects.append(.init(builder.timedAtom(words[position + 1]) ?? 0, duration(effectMark, words[position + 2])))
                effectMark = words[position + 2]
            case TimingWord.subscriber:
                let number = Int(words[position + 1])
                let location: Int
                if let known = builder.timedLocationIDs[number] {
                    location = known
                } else if let at = builder.timedLocations[number] {
                    location = builder.locationID(subscriber: at, lines: &output)
                    builder.timedLocationIDs[number] = location
                } else {
                    // A location the timer never declared (none, as recorded).
                    location = 0
                }
                line.subscribers.append(.init(location, duration(subscriberMark, words[position + 2])))
                subscriberMark = words[position + 2]
            case TimingWord.notified:
                if let atom = builder.timedAtom(words[position + 1]) {
                    notified.append(.init(atom, Int(words[position + 2])))
                }
            case TimingWord.task:
                if let atom = builder.timedAtom(words[position + 1]) {
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
        guard let origin = builder.recentOrigins.last(where: { $0.seq == seq })?.origin,
            let last = builder.recentOrigins.last?.seq
        else { return }
        line.back = last - seq
        // Without `n`, the origin told every subscriber listed.
        let isDefault = line.subscribers.isEmpty
            ? notified.isEmpty
            : origin != 0 && notified.count == 1 && notified[0].subject == origin && notified[0].value == line.subscribers.count
        if !isDefault { line.notified = notified }
        PackedTimingLine.append(line, shapes: &builder.timingShapes, to: &output)
        line.notified = nil
    }
}

extension TransactionLineBuilder {
    /// The journal's number for the atom timed as node serial `serial`, if it has one.
    fileprivate mutating func timedAtom(_ serial: UInt64) -> Int? {
        guard serial != 0 else { return nil }
        let epoch = state.forgetEpoch
        if let known = timedNumbers[Int(serial)], known.epoch == epoch { return known.id }
        guard let identity = timedAtoms[Int(serial)], let id = state.ids[identity] else { return nil }
        timedNumbers[Int(serial)] = (id, epoch)
        return id
    }
}
