import Atoms
import Foundation

/// Turns captured transactions into journal lines (format 4): a location line the first time a
/// location appears, one compact transaction line, and keyframes (see `appendLines`). For a
/// bounded journal it also decides when a new segment starts, and builds its opening lines.
/// Runs on the recorder's thread; owns the mirror of the recorded state.
///
/// Its parts each have a room of their own: the numbering of source locations
/// (``SourceLocationNumbers``), when a keyframe is due (``KeyframePolicy``), the timing lines
/// (``TimingLineBuilder``), the time's digits (``JournalTime``) and a compared value's entry
/// (`TransactionLine.appendEntry(for:id:to:)`).
struct TransactionLineBuilder: Sendable {
    private var state = RecordedState()
    private var keyframes: KeyframePolicy
    /// The monotonic clock's reading when recording started: transactions' times count from it.
    private let clockStart: UInt64
    private let encoder = ValueEncoder()
    private var locations = SourceLocationNumbers()
    /// Reused for each transaction line, and its time, keeping their capacity.
    private var lineBuffer: [UInt8] = []
    private var timeBuffer: [UInt8] = []
    private let differ = ValueDiffer()
    private var timing = TimingLineBuilder()

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
        keyframes = KeyframePolicy(interval: keyframeInterval)
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
        timing.startSegment()
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
    func endLine(waitsForRecorder waits: Int) -> [UInt8] {
        var time: [UInt8] = []
        JournalTime.appendMilliseconds(since: clockStart, at: max(lastTimestamp, MonotonicClock.now()), to: &time)
        var bytes = Array(EndRecord.line(seq: lastStep, time: time, waits: waits).utf8)
        bytes.append(0x0A)
        return bytes
    }

    // MARK: Seeding

    /// Records the state the store had when recording started (before any line is written):
    /// its atoms, numbered in the order given, the values its capture slots took into
    /// `captured` (each slot holds its atom's value from then on, as after a transaction), and
    /// its graph.
    mutating func seed(
        atoms: [AtomIdentity],
        captured: CaptureStaging,
        edges: [(dependency: AtomIdentity, dependent: AtomIdentity)],
        subscriptions: [(atom: AtomIdentity, location: SourceLocation)]
    ) {
        for atom in atoms {
            _ = state.id(of: atom)
        }
        captured.beginBatch()
        for change in captured.changes {
            change.slot.seed(encoded: change.encoded, differ: differ, encoder: encoder)
            state.values[state.id(of: change.slot).0] = change.slot
        }
        captured.finishBatch()
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

    /// The last step recorded (a transaction, or the step recording started at).
    var recordedThrough: Int {
        lastStep
    }

    /// The keyframe of the current state, after transaction `seq`; the next one is weighed
    /// against it.
    mutating func keyframe(seq: Int) -> String {
        let keyframe = state.keyframe(seq: seq, encoder: encoder, differ: differ, locations: locations.declarations)
        keyframes.wroteKeyframe(bytes: keyframe.utf8.count)
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
        let before = output.count
        timing.appendLines(for: timings, in: batch, state: state, locations: &locations, to: &output)
        segmentBytes += output.count - before
    }

    /// Appends `,` and the transaction's graph changes (format 4.4's positional lists) to
    /// `line` when there are any, and to `lines` the `loc` line of each subscriber's location
    /// and declared type numbered first here (subscribers first, as they were found).
    private mutating func appendGraphChanges(
        declarations: [AtomDeclaration], created: [Int], released: [Int], edges: (added: [EdgeEntry], removed: [EdgeEntry]),
        subscriptions: (added: [SubscriptionEntry], removed: [SubscriptionEntry]), subscriberLocations: [String: SourceLocation],
        to line: inout [UInt8], lines output: inout [UInt8]
    ) {
        func numbered(_ subscription: SubscriptionEntry) -> (atom: Int, location: Int) {
            // Every entry the mirror returns came from this transaction's lists, so its
            // location is known; by its text otherwise.
            guard let known = subscriberLocations[subscription.at] else {
                return (subscription.atom, locations.text(subscription.at, lines: &output))
            }
            return (subscription.atom, locations.subscriber(known, lines: &output))
        }
        var graph = PositionalGraph()
        graph.subsAdded = subscriptions.added.map(numbered)
        graph.subsRemoved = subscriptions.removed.map(numbered)
        // A declaration's type by number, and its label only when the type's name does not
        // give it.
        graph.declare = declarations.map { PositionalGraph.Declaration($0, type: locations.text($0.type, lines: &output)) }
        (graph.created, graph.released) = (created, released)
        (graph.edgesAdded, graph.edgesRemoved) = (edges.added, edges.removed)
        guard !graph.isEmpty else { return }
        line.append(UInt8(ascii: ","))
        graph.append(to: &line)
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
        var declarations: [AtomDeclaration] = []
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
        // write site's first, then the subscribers' and the declared types' (below).
        let location = locations.writeSite(transaction.location, lines: &output)
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
        timing.noteOrigin(seq: transaction.sequence, origin: origin)

        // The line: `[seq,t,"cause",origin,at,[values]` then `,{graph}` when the graph changed.
        // Declarations made while writing values go into the graph part, so the line is
        // written to its own buffer first and appended after any declaration it needs.
        var line: [UInt8] = []
        swap(&line, &lineBuffer)  // reuse the buffer's capacity; it is unique while taken
        line.removeAll(keepingCapacity: true)
        var time: [UInt8] = []
        swap(&time, &timeBuffer)  // unique while taken: emptying it keeps its storage
        time.removeAll(keepingCapacity: true)
        JournalTime.appendMilliseconds(since: clockStart, at: transaction.timestamp, to: &time)
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
            appendEntry(id: atomID, change: change, to: &line)
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

        // Most transactions only change values: they build no graph part.
        if graph != nil || !declarations.isEmpty {
            appendGraphChanges(
                declarations: declarations, created: created, released: released, edges: edges, subscriptions: subscriptions,
                subscriberLocations: subscriberLocations, to: &line, lines: &output
            )
        }
        line.append(contentsOf: [UInt8(ascii: "]"), 0x0A])
        output.append(contentsOf: line)
        // Without the time's digits: see `KeyframePolicy`.
        keyframes.wroteTransaction(bytes: line.count - timeBytes)
        swap(&line, &lineBuffer)

        let startsSegment = segmentSize.map { segmentBytes + output.count - outputBefore >= $0 } ?? false
        if !startsSegment && keyframes.isDue {
            output.append(contentsOf: keyframe(seq: transaction.sequence).utf8)
            output.append(0x0A)
        }
    }

    /// Appends one value entry, and makes the change's slot the holder of the atom's value:
    /// the slot compares the value with the one it holds (``RecordedSlot``). An atom the
    /// mirror held no value of, or whose value another slot holds (its node was made again),
    /// has no previous value: it is written whole.
    private mutating func appendEntry(id: Int, change: CapturedChange, to output: inout [UInt8]) {
        let heldAlready = state.values.hold(id, by: change.slot)
        change.slot.record(encoded: change.encoded, id: id, isNew: !heldAlready, differ: differ, encoder: encoder, to: &output)
    }
}
