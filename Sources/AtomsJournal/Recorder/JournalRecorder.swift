import Atoms
import Foundation

/// Records every transaction of a store into a journal: a header, an initial keyframe, one
/// line per transaction holding only what changed, and now and then a keyframe of the whole
/// state (after at least `keyframeInterval` transactions, once they weigh twice the last one).
///
/// As a transaction commits, the recorder only captures it; its own thread (one, whatever the
/// sink) numbers the atoms, compares each value with the previous one, encodes what changed,
/// builds the lines and hands them to the sink, synchronously, as the sink's
/// ``JournalSink/flushPolicy`` says. Values with a class instance inside (which the main actor
/// could change meanwhile), asynchronous phases and values that are not `Codable` are encoded
/// on the main actor at commit instead. Call ``flush()`` before reading what a sink holds.
///
/// ## Example
/// ```swift
/// let root = AtomRoot()
/// let recorder = try JournalRecorder(path: "session.jsonl")
/// recorder.attach(to: root.store)
/// // … use atoms …
/// try recorder.close()
/// ```
@MainActor
public final class JournalRecorder {
    let sink: any JournalSink
    /// The journal's path, when the sink is a file or a bounded journal's folder (a control
    /// endpoint serves it).
    let file: (path: String, isFolder: Bool)?
    /// The flight recorder's memory, for a flight recorder (its dumps read it).
    let flightRecorder: FlightRecorderSink?
    private let keyframeInterval: Int
    private let redactedTypes: [ObjectIdentifier]
    let program: String?
    /// The capture slots' maker, made at ``attach(to:)``.
    private var slots: CaptureSlotMaker?
    // Unchecked exclusivity: `pipeline` and `isClosed` are read on every commit and timing, on
    // the main actor, and written only by `attach` and `close`, never while a read is open.
    @exclusivity(unchecked) private var pipeline: RecordingPipeline?
    private var start = Date()
    private var isAttached = false
    /// Whether each transaction's cost is recorded too: a timing line after it, with its atom
    /// evaluations, observers, effects, subscribers and asynchronous tasks, which
    /// `atoms-inspect profile`, `cost` and the report's cost lane read (docs/PROFILE.md). Set
    /// it before ``attach(to:)``.
    ///
    /// On by default: a timing is a few clock readings and integers on the app's thread and
    /// a timing line of about 40 bytes (docs/PERFORMANCE.md). Set it to `false` to opt out;
    /// the journal then has no timing lines and cannot be profiled.
    public var recordsTiming = true
    /// Told on the recorder's thread, after each batch of transactions it recorded, what its
    /// mirror of the store holds (``RecorderObservation``): for the tests and benchmarks that
    /// watch the recorder's memory. Set it before ``attach(to:)``.
    package var observer: (@Sendable (RecorderObservation) -> Void)?
    /// The most transactions the app's thread hands over before it waits for the recorder's
    /// thread to take them (``RecordingPipeline``); smaller in the tests of that wait. Set it
    /// before ``attach(to:)``.
    package var handOverLimit = RecordingPipeline.defaultSideLimit
    @exclusivity(unchecked) private var isClosed = false
    /// The timings of the transactions finished since the last capture, handed over with the
    /// next transaction (one queue item for both), or at ``flush()`` or
    /// ``close()``: a timing line is written after its transaction's line, before the next
    /// transaction's.
    @exclusivity(unchecked) private var pendingTimings = CapturedTimings()
    /// The store recorded, for the control endpoint (the store keeps the recorder alive).
    private(set) weak var store: AtomStore?
    /// The control endpoint, while listening: see `listen(at:)`.
    var control: ControlEndpoint?

    /// Creates a recorder writing to a sink.
    ///
    /// - Parameters:
    ///   - sink: Where lines go (a file, memory).
    ///   - keyframeInterval: The fewest transactions between keyframes (more when the state
    ///     is large and its changes small: a keyframe waits until the transactions since the
    ///     last one weigh twice as much as it did).
    ///   - redacting: Atom types whose values are never written (besides atoms conforming to
    ///     ``JournalRedacted``).
    ///   - program: A name for the recording program, stored in the header.
    public convenience init(
        sink: any JournalSink,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) {
        self.init(sink: sink, file: nil, flightRecorder: nil, keyframeInterval: keyframeInterval, redacting: redacting, program: program)
    }

    /// Creates a recorder writing to a journal file or a bounded journal's folder, as
    /// ``init(sink:keyframeInterval:redacting:program:)`` does; the recorder knows the path,
    /// so it can serve a control endpoint (``listen(at:)``).
    public convenience init(
        sink: FileJournalSink,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) {
        self.init(sink: sink, file: sink.location, flightRecorder: nil, keyframeInterval: keyframeInterval, redacting: redacting, program: program)
    }

    /// The one initializer: what the recorder knows of its sink is given here, by the
    /// initializers that made the sink, never found by casting it.
    init(
        sink: any JournalSink,
        file: (path: String, isFolder: Bool)?,
        flightRecorder: FlightRecorderSink?,
        keyframeInterval: Int,
        redacting: [any Atom.Type],
        program: String?
    ) {
        self.sink = sink
        self.file = file
        self.flightRecorder = flightRecorder
        self.keyframeInterval = max(1, keyframeInterval)
        self.redactedTypes = redacting.map { ObjectIdentifier($0) }
        self.program = program
    }

    /// Creates a recorder writing to a new journal file (mode 0600, replacing any file there).
    ///
    /// - Throws: ``JournalError`` when the file cannot be created.
    public convenience init(
        path: String,
        flush: FlushPolicy = .everyTransaction,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) throws {
        let sink = try FileJournalSink(path: path, flush: flush)
        self.init(sink: sink, file: sink.location, flightRecorder: nil, keyframeInterval: keyframeInterval, redacting: redacting, program: program)
    }

    /// Creates a recorder writing a bounded journal: the folder `path` holds numbered
    /// segments, each starting with a keyframe, and the oldest are deleted so the journal
    /// stays within `limit` bytes plus one segment (a quarter of the limit). Inspect it by the
    /// same path. Steps keep their numbers; a journal whose first segments are gone starts
    /// at a later step.
    ///
    /// - Parameter limit: The size limit in bytes, at least 4 KB; `nil` for one unbounded
    ///   file, as ``init(path:flush:keyframeInterval:redacting:program:)`` writes.
    /// - Throws: ``JournalError`` when the folder cannot be created or the limit is too small.
    public convenience init(
        path: String,
        limit: Int?,
        flush: FlushPolicy = .everyTransaction,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) throws {
        let sink = try limit.map { try FileJournalSink(directory: path, limit: $0, flush: flush) }
            ?? FileJournalSink(path: path, flush: flush)
        self.init(sink: sink, file: sink.location, flightRecorder: nil, keyframeInterval: keyframeInterval, redacting: redacting, program: program)
    }

    /// Starts recording a store: writes the header and a keyframe of its current state, then
    /// every transaction it commits.
    public func attach(to store: AtomStore) {
        precondition(!isAttached, "A JournalRecorder records one store.")
        isAttached = true
        self.store = store
        start = Date()
        let header = JournalHeaderLine(
            created: ISO8601DateFormatter().string(from: start),
            keyframeInterval: keyframeInterval,
            program: program,
            limit: sink.sizeLimit,
            timed: recordsTiming
        )
        // Transactions carry raw monotonic stamps; the builder counts them from this one.
        let clockStart = MonotonicClock.now()
        var builder = TransactionLineBuilder(keyframeInterval: keyframeInterval, clockStart: clockStart, header: header, segmentSize: sink.sizeLimit.map(SegmentWriter.segmentSize(forLimit:)))
        let snapshot = store.snapshot()
        let handOver = CaptureHandOver()
        let slots = CaptureSlotMaker(staging: handOver.even, redactedTypes: redactedTypes)
        self.slots = slots
        // The values the store holds go through the capture slots that will take their later
        // values, as a commit's would: each slot holds its atom's value from the start.
        store.captureValues(into: slots)
        builder.seed(
            atoms: snapshot.atoms,
            captured: handOver.even,
            edges: snapshot.atoms.flatMap { atom in
                snapshot.dependencies(of: atom).map { (dependency: $0, dependent: atom) }
            },
            subscriptions: snapshot.atoms.flatMap { atom in
                snapshot.subscriptions(of: atom).map { (atom: atom, location: $0) }
            }
        )
        // The opening lines are on disk before the program goes on: a program killed a moment
        // later leaves a journal that opens (empty of transactions), not an empty file. A
        // failure here is reported by the next flush or close, as any write failure.
        let opening = builder.opening(seq: store.committedTransactions)
        pipeline = RecordingPipeline(sink: sink, builder: builder, handOver: handOver, opening: opening, sideLimit: handOverLimit, observer: observer)
        flightRecorder?.recordingStarted(header: header, startStep: store.committedTransactions, clockStart: clockStart, pipeline: pipeline)
        // The store keeps the recorder alive: recording lasts until `close()`, even when the
        // caller keeps no reference.
        store.observeCommits { transaction in
            self.record(transaction)
        }
        // The clock starts with the recording.
        guard recordsTiming else { return }
        store.observeTimings { timing in
            guard !self.isClosed else { return }
            self.pendingTimings.append(timing)
        }
    }

    /// Hands every line of the transactions committed so far to the sink (to the file), and
    /// waits until the recorder's thread did.
    ///
    /// - Throws: ``JournalError`` when the sink failed to store a line.
    public func flush() throws {
        handOverPendingTiming()
        try pipeline?.flush()
    }

    /// Writes the end line, flushes, syncs the file to disk and closes it. Later transactions
    /// are not recorded.
    public func close() throws {
        handOverPendingTiming()
        isClosed = true
        control?.close()
        if let pipeline {
            try pipeline.finish()
        } else {
            try sink.close()
        }
    }

    // The store it records keeps a recorder alive; when the store goes away without `close()`,
    // the journal is completed here and the recorder's threads end, rather than leaking.
    isolated deinit {
        if !isClosed {
            try? close()
        }
    }

    /// Queues the last transaction's timing, which waits for the next transaction otherwise.
    private func handOverPendingTiming() {
        guard !pendingTimings.isEmpty, let pipeline, !isClosed else { return }
        pipeline.append(&pendingTimings)
    }

    /// Captures a committed transaction for the recorder's thread.
    private func record(_ transaction: borrowing CommittedTransaction) {
        guard !isClosed, let pipeline, let slots else { return }
        let graph = transaction.changesGraph
            ? CapturedTransaction.GraphChanges(
                created: transaction.created,
                released: transaction.released,
                edgesAdded: transaction.edgesAdded,
                edgesRemoved: transaction.edgesRemoved,
                subscriptionsAdded: transaction.subscriptionsAdded,
                subscriptionsRemoved: transaction.subscriptionsRemoved
            )
            : nil
        // The slots stage the changed values into the hand-over's current side: the values
        // wait in their atoms' slots, typed, and the transaction refers to its range of changes.
        let staging = pipeline.beginCapture()
        slots.staging = staging
        let timings = pendingTimings.isEmpty ? nil : pendingTimings.stage(into: staging)
        let first = staging.changes.count
        // The origin's identity only when its value is not among the changes: retained here
        // and released on the recorder's thread, its count would move between the cores.
        // (No `Optional.map` here: its closure would check the main actor on every call.)
        let origin: CapturedTransaction.Origin?
        if let position = transaction.captureChangedValues(into: slots) {
            origin = .change(first + position)
        } else if let atom = transaction.origin {
            origin = .atom(atom)
        } else {
            origin = nil
        }
        pipeline.endCapture(.transaction(
            CapturedTransaction(
                sequence: transaction.sequence,
                // A timed transaction's time is when it began (one clock reading fewer).
                timestamp: transaction.started != 0 ? transaction.started : MonotonicClock.now(),
                cause: transaction.cause,
                origin: origin,
                location: transaction.location,
                changes: first..<staging.changes.count,
                graph: graph
            ),
            timingBefore: timings
        ), into: staging)
    }
}
