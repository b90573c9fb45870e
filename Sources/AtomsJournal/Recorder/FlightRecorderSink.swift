import Atoms
import Foundation
import Synchronization

/// A flight recorder's sink: keeps the last `capacity` bytes of journal in memory and writes
/// them to a file only when asked (``dump(to:)``).
///
/// The journal is kept as a bounded journal's segments are written, in memory: each segment
/// opens with a header and a keyframe, a new one starts once the current one reaches a
/// quarter of the capacity, and the oldest are dropped while the segments hold more than the
/// capacity. Memory therefore stays within the capacity plus one segment, and what is kept
/// always starts at a keyframe. A dropped segment's buffer is reused for the next one, so a
/// long recording allocates nothing more once it runs.
///
/// The recorder's thread hands lines over as to any sink, so the app's thread pays what it
/// pays for a journal file. The lock here is between that thread and a dump, not on the
/// app's thread.
final class FlightRecorderSink: JournalSink {
    /// One segment: its opening lines (header, keyframe) and every line since, each ending in
    /// a newline.
    private struct Segment {
        var bytes: [UInt8]
        /// The length of the header line, newline included (a dump writes one header of its own).
        var headerLength: Int
    }

    /// What a dump needs of the recording, known once it starts.
    private struct Recording {
        /// The dump's header line, with its newline.
        let header: [UInt8]
        /// The monotonic clock's reading when recording started: the end line's time counts
        /// from it.
        let clockStart: UInt64
        /// Returns once the recorder's thread has built the lines of every transaction queued
        /// before the call.
        let catchUp: @Sendable () -> Void
    }

    private struct State {
        /// Oldest first; the last one is being written.
        var segments: [Segment] = []
        var heldBytes = 0
        var recording: Recording?
        var isClosed = false
        /// Run when the sink closes (a signal's dumps stop).
        var closers: [@Sendable () -> Void] = []
    }

    /// The bytes of journal kept, give or take the segment being written.
    let capacity: Int
    /// The size at which a new segment starts.
    private let segmentLength: Int
    private let state = Mutex(State())
    /// Told what the sink holds after each change, under its lock.
    private let observer: (@Sendable (Memory) -> Void)?

    /// The smallest capacity accepted: a segment must hold a keyframe and some transactions.
    static let minimumCapacity = JournalSizeLimit.minimum

    /// A flight recorder keeping about `capacity` bytes; `observer` (for the tests that watch
    /// its memory) is told what it holds after each change.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` below ``minimumCapacity``.
    init(capacity: Int, observer: (@Sendable (Memory) -> Void)? = nil) throws(JournalError) {
        self.observer = observer
        guard capacity >= Self.minimumCapacity else {
            throw .cannotCreate(path: "flight recorder", reason: "a flight recorder of \(capacity) bytes is below the smallest, \(Self.minimumCapacity) bytes")
        }
        self.capacity = capacity
        segmentLength = SegmentWriter.segmentSize(forLimit: capacity)
    }

    /// The capacity: segments start as a bounded journal's do (at a quarter of it), and their
    /// headers name it as a bounded journal's limit.
    var sizeLimit: Int? {
        capacity
    }

    /// What the sink holds after a change (see ``init(capacity:observer:)``).
    struct Memory: Sendable, Equatable {
        /// The bytes of journal held (the segments' lines).
        var held: Int
        /// The memory the segments' buffers take (their capacities).
        var allocated: Int
    }

    /// Tells the sink what a dump needs once the recorder has started: the recording's header,
    /// the step it started at and when, and the pipeline whose queue a dump waits for.
    func recordingStarted(header: JournalHeaderLine, startStep: Int, clockStart: UInt64, pipeline: RecordingPipeline?) {
        var header = header
        header.startStep = startStep
        var line = Array(header.dumpLine().utf8)
        line.append(0x0A)
        let recording = Recording(header: line, clockStart: clockStart) { [weak pipeline] in pipeline?.drain() }
        state.withLock { $0.recording = recording }
    }

    /// Runs `closer` when the sink closes (at once when it is closed already).
    func whenClosed(_ closer: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state in
            if !state.isClosed { state.closers.append(closer) }
            return state.isClosed
        }
        if closed { closer() }
    }

    // MARK: JournalSink

    /// Starts a segment, dropping the oldest while the segments would hold more than the
    /// capacity, and reusing the last one dropped's buffer.
    func startSegment(opening: [UInt8]) {
        // Room for the segment's lines and the transaction that ends it, most of the time.
        let reserve = segmentLength + segmentLength / 8
        state.withLock { state in
            guard !state.isClosed else { return }
            var reused: [UInt8] = []
            while !state.segments.isEmpty, state.heldBytes + opening.count > capacity {
                let oldest = state.segments.removeFirst()
                state.heldBytes -= oldest.bytes.count
                reused = oldest.bytes
            }
            reused.removeAll(keepingCapacity: true)
            reused.reserveCapacity(max(reserve, opening.count))
            reused.append(contentsOf: opening)
            let headerLength = (opening.firstIndex(of: 0x0A) ?? opening.count - 1) + 1
            state.segments.append(Segment(bytes: reused, headerLength: headerLength))
            state.heldBytes += opening.count
            report(state)
        }
    }

    /// Appends lines to the current segment.
    func append(_ lines: [UInt8]) {
        guard !lines.isEmpty else { return }
        state.withLock { state in
            guard !state.isClosed, !state.segments.isEmpty else { return }
            state.segments[state.segments.count - 1].bytes.append(contentsOf: lines)
            state.heldBytes += lines.count
            report(state)
        }
    }

    /// Tells the observer, if any, what `state` holds.
    private func report(_ state: State) {
        guard let observer else { return }
        observer(Memory(held: state.heldBytes, allocated: state.segments.reduce(0) { $0 + $1.bytes.capacity }))
    }

    /// Nothing to make durable: the lines stay in memory.
    func sync() {}

    /// Keeps what is held (the end line included) for a later dump, and stops the signal's
    /// dumps; later lines are ignored.
    func close() throws {
        let closers = state.withLock { state in
            state.isClosed = true
            defer { state.closers.removeAll() }
            return state.closers
        }
        for closer in closers { closer() }
    }

    // MARK: Dumping

    /// Waits until the recorder's thread has handed over the transactions queued before the
    /// call, for at most `seconds`. What the program commits meanwhile is not waited for, so a
    /// busy program's dump is not held up by its later work; a loaded machine slows that
    /// thread without stopping it, so the generous limit still gets every transaction.
    func catchUp(within seconds: Double) {
        guard let catchUp = state.withLock({ $0.recording?.catchUp }) else { return }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            catchUp()
            done.signal()
        }
        _ = done.wait(timeout: .now() + seconds)
    }

    /// Writes what is held to `path` as one journal file: the recording's header (without a
    /// segment number), the oldest segment's keyframe and every line since, and an end line
    /// when the recorder is still recording. The file is replaced atomically (a temporary file
    /// beside it, renamed over it); a new one has mode 0600.
    ///
    /// - Returns: The dump's first step (its keyframe) and last step.
    /// - Throws: ``JournalError`` when nothing was recorded yet or the file cannot be written.
    func dump(to path: String) throws(JournalError) -> ClosedRange<Int> {
        guard let (bytes, steps) = journal() else {
            throw .cannotCreate(path: path, reason: "the flight recorder holds no journal yet: attach the recorder to a store first")
        }
        try OutputFile.write(bytes, to: path, permissions: 0o600)
        return steps
    }

    /// The journal held, as a file's bytes, and the steps it spans; `nil` before recording.
    func journal(at now: UInt64 = MonotonicClock.now()) -> (bytes: [UInt8], steps: ClosedRange<Int>)? {
        var start = now
        let held: [UInt8]? = state.withLock { state in
            guard let recording = state.recording, !state.segments.isEmpty else { return nil }
            start = recording.clockStart
            var bytes = recording.header
            bytes.reserveCapacity(recording.header.count + state.heldBytes + 64)
            for segment in state.segments {
                bytes.append(contentsOf: segment.bytes[segment.headerLength...])
            }
            return bytes
        }
        guard var bytes = held, let span = LineScanner.stepSpan(of: bytes) else { return nil }
        if !span.ended {
            let micros = now > start ? Double((now &- start) / 1_000) : 0
            var time: [UInt8] = []
            time.appendJSONNumber(micros / 1_000)
            bytes.append(contentsOf: EndRecord.line(seq: span.last, time: time).utf8)
            bytes.append(0x0A)
        }
        return (bytes, span.first...span.last)
    }
}
