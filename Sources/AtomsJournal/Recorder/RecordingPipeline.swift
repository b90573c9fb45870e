import Atoms
import Foundation

/// The recorder's one thread: takes what the main actor captured, turns it into lines and
/// hands them to the sink itself, synchronously, in order. The sink is a plain synchronous
/// thing this thread calls.
///
/// The main actor stages each transaction into a side of the ``CaptureHandOver``, with no
/// lock: it takes the pipeline's lock only to wake the thread when it sleeps, and to wait
/// when a side is full (``defaultSideLimit`` transactions the thread has not taken: a file
/// journal's program then waits for the recorder, and so does a flight recorder's, which
/// keeps its memory bounded; the waits are counted in the journal's end line). The thread
/// takes a side whenever it finds one with transactions, so a busy session hands over in
/// batches of what accumulated while the last one was recorded; when it finds none after a
/// batch, it pauses briefly before it sleeps, so that a program committing at a steady pace
/// does not wake it at every commit. When lines reach the sink is the sink's ``JournalSink/flushPolicy``:
/// after each batch, when the oldest line built has waited an interval (the thread's wait
/// times out then), or at `flush()` and `close()`.
final class RecordingPipeline: @unchecked Sendable {
    /// What the main actor hands over, in the order it arrives: a transaction (with the
    /// timings of earlier ones, whose lines come first, when it carries any), or timings
    /// alone (at a flush or close).
    enum Item {
        case transaction(CapturedTransaction, timingBefore: StagedTimings?)
        case timing(StagedTimings)
    }

    // Unchecked (and unchecked exclusivity): the flags, the counters and `failure` are
    // guarded by `condition`, but for `waitsForRecorder`, the main actor's; `builder` and
    // the sink are touched only by the pipeline's thread once it started; the hand-over's
    // sides as ``CaptureHandOver`` says.
    private let condition = NSCondition()
    /// Told on the pipeline's thread after each batch what the mirror holds (set by the tests
    /// that watch the recorder's memory; `nil` otherwise).
    private let observer: (@Sendable (RecorderObservation) -> Void)?
    private let sink: any JournalSink
    private let policy: FlushPolicy
    @exclusivity(unchecked) private var builder: TransactionLineBuilder
    private let handOver: CaptureHandOver
    @exclusivity(unchecked) private var isClosing = false
    /// The main actor's waits for the thread, told at closing (for the end line).
    @exclusivity(unchecked) private var closingWaits = 0
    @exclusivity(unchecked) private var isFinished = false
    /// Flushes asked for, and the last one done: a flush waits until the thread handed the
    /// sink every line queued before it asked.
    @exclusivity(unchecked) private var flushesRequested = 0
    @exclusivity(unchecked) private var flushesDone = 0
    /// Captures the thread turned into lines: a drain waits until they reach those ended
    /// when it was called, not for what is queued after.
    @exclusivity(unchecked) private var capturesRecorded = 0
    /// The first failure of the sink, reported by the next `flush()` or `close()`.
    @exclusivity(unchecked) private var failure: JournalError?
    /// How many times the main actor waited for the thread to take a full side.
    @exclusivity(unchecked) private var waitsForRecorder = 0

    /// The most transactions a side holds before the main actor waits for the thread: a
    /// recorder that falls this far behind holds the program back rather than letting its
    /// memory grow without bound.
    static let defaultSideLimit = 1 << 16
    private let sideLimit: Int
    /// How long the thread pauses after a batch before it sleeps, in seconds: a program that
    /// commits every few dozen microseconds then wakes it once a pause, not once a commit
    /// (a wake-up costs the committing thread several microseconds: docs/PERFORMANCE.md).
    private static let batchPause = 0.000_2
    /// A long batch reaches the sink in pieces of about this size, not all at its end (unless
    /// the policy keeps lines until the recorder closes).
    private static let handOverBytes = 64 << 10

    /// Writes the journal's opening lines (`opening`, a header and a keyframe) at once, on
    /// the caller's thread, so a program killed a moment later leaves a journal that opens;
    /// then starts the thread. `builder` already holds the recorded state's starting point.
    init(
        sink: any JournalSink, builder: TransactionLineBuilder, handOver: CaptureHandOver, opening: [UInt8],
        sideLimit: Int = defaultSideLimit, observer: (@Sendable (RecorderObservation) -> Void)? = nil
    ) {
        self.sideLimit = max(1, sideLimit)
        self.observer = observer
        self.sink = sink
        self.policy = sink.flushPolicy
        self.builder = builder
        self.handOver = handOver
        do {
            try sink.startSegment(opening: opening)
        } catch {
            failure = Self.journalError(error)
        }
        let thread = Thread { [self] in run() }
        thread.name = "atoms.journal.recorder"
        // Encoding and dumping recurse through nested values: give the thread a main-thread
        // sized stack (sanitizers enlarge frames several times).
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Starts a capture: returns the side the capture slots stage a transaction's changed
    /// values into, until ``endCapture(_:into:)`` queues its item.
    @inline(__always)
    func beginCapture() -> CaptureStaging {
        handOver.beginCapture()
    }

    /// Queues the item of the capture begun with ``beginCapture()``, and wakes the recorder's
    /// thread if it sleeps. (The values that thread left on the side were released as the
    /// slots staged into it.)
    func endCapture(_ item: consuming Item, into side: CaptureStaging) {
        side.items.append(item)
        let isFull = side.items.count >= sideLimit
        if handOver.endCapture() || isFull {
            // All waiters: a drain on another thread (a flight recorder's dump) waits on the
            // same condition, and must not take the thread's wake-up.
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
        if isFull {
            waitsForRecorder += 1
            drain()
        }
    }

    /// Queues the timings waiting, alone.
    func append(_ timings: inout CapturedTimings) {
        let side = beginCapture()
        endCapture(.timing(timings.stage(into: side)), into: side)
    }

    /// Returns once every transaction queued before the call has been built into lines (and,
    /// unless the policy holds them back, handed to the sink); what a busy program queues
    /// meanwhile is not waited for. Called on any thread (a flight recorder's dump).
    func drain() {
        let ticket = handOver.capturesEnded
        condition.lock()
        while capturesRecorded < ticket && !isFinished {
            condition.wait()
        }
        condition.unlock()
    }

    /// Returns once the sink holds every line of the transactions queued so far, whatever the
    /// policy.
    ///
    /// - Throws: The sink's first failure.
    func flush() throws(JournalError) {
        condition.lock()
        flushesRequested += 1
        let flush = flushesRequested
        condition.broadcast()
        while flushesDone < flush && !isFinished {
            condition.wait()
        }
        let failure = failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// Processes what is queued, ends the journal with its end line, syncs and closes the
    /// sink, and stops the thread.
    ///
    /// - Throws: The sink's first failure.
    func finish() throws(JournalError) {
        condition.lock()
        isClosing = true
        closingWaits = waitsForRecorder
        condition.broadcast()
        while !isFinished {
            condition.wait()
        }
        let failure = failure
        condition.unlock()
        if let failure { throw failure }
    }

    private func run() {
        // The lines built and not handed to the sink yet, and since when they wait.
        var lines: [UInt8] = []
        var waitingSince: Date?
        var recordedABatch = false
        while true {
            condition.lock()
            if recordedABatch && !handOver.hasCaptures && !isClosing && flushesDone == flushesRequested {
                // A pause before sleeping, not marked as sleep: the commits that come
                // meanwhile wait for the next batch instead of each waking the thread (a
                // flush, a close or a full side cuts it short).
                _ = condition.wait(until: Date().addingTimeInterval(Self.batchPause))
            }
            while !handOver.hasCaptures && !isClosing && flushesDone == flushesRequested {
                guard handOver.prepareToSleep() else { break }
                if case .interval(let milliseconds) = policy, let waitingSince {
                    let due = waitingSince.addingTimeInterval(Double(max(1, milliseconds)) / 1000)
                    let woken = condition.wait(until: due)
                    handOver.wake()
                    if !woken { break }
                } else {
                    condition.wait()
                    handOver.wake()
                }
            }
            let closing = isClosing
            let flush = flushesRequested
            condition.unlock()

            var failed: JournalError?
            var recorded = 0
            var side: CaptureStaging?
            if handOver.hasCaptures {
                let taken = handOver.take()
                taken.beginBatch()
                failed = processBatch(taken, lines: &lines)
                recorded = taken.items.count
                side = taken
            }
            recordedABatch = side != nil
            if !lines.isEmpty, closing || flush > flushesDone || isDue(since: waitingSince, bytes: lines.count) {
                failed = failed ?? hand(lines)
                lines.removeAll(keepingCapacity: true)
                waitingSince = nil
            } else if !lines.isEmpty, waitingSince == nil {
                waitingSince = Date()
            }
            if let side {
                side.finishBatch()
                if let observer {
                    observer(RecorderObservation(mirror: builder.mirrorSizes, recordedThrough: builder.recordedThrough))
                }
            }

            condition.lock()
            if let failed, failure == nil {
                failure = failed
            }
            capturesRecorded += recorded
            if lines.isEmpty, flush > flushesDone {
                flushesDone = flush
            }
            condition.broadcast()
            // Closing comes after the main actor's last capture.
            let done = closing && !handOver.hasCaptures
            condition.unlock()
            if done {
                break
            }
        }
        // Closing: the end line, then durable, then closed.
        condition.lock()
        let waits = closingWaits
        condition.unlock()
        var ending = lines
        ending.append(contentsOf: builder.endLine(waitsForRecorder: waits))
        var failed = hand(ending)
        do {
            try sink.sync()
            try sink.close()
        } catch {
            failed = failed ?? Self.journalError(error)
        }
        condition.lock()
        if let failed, failure == nil {
            failure = failed
        }
        flushesDone = flushesRequested
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether lines built at `since` (and `bytes` of them) are to reach the sink now.
    private func isDue(since: Date?, bytes: Int) -> Bool {
        switch policy {
        case .everyTransaction:
            return true
        case .interval(let milliseconds):
            guard let since else { return bytes >= Self.handOverBytes }
            return bytes >= Self.handOverBytes || Date().timeIntervalSince(since) * 1000 >= Double(milliseconds)
        case .onClose:
            return false
        }
    }

    /// Turns the batch into lines, starting segments where the builder says (the lines before
    /// a new segment reach the old one first). Leaves the lines in `lines`; the caller empties
    /// the batch (``CaptureStaging/finishBatch()``).
    ///
    /// - Returns: The sink's first failure, if any.
    private func processBatch(_ batch: CaptureStaging, lines: inout [UInt8]) -> JournalError? {
        var failed: JournalError?
        for item in batch.items {
            builder.appendLines(for: item, in: batch, to: &lines)
            if let opening = builder.takeSegmentOpening() {
                failed = failed ?? hand(lines)
                lines.removeAll(keepingCapacity: true)
                do {
                    try sink.startSegment(opening: opening)
                } catch {
                    failed = failed ?? Self.journalError(error)
                }
            } else if lines.count >= Self.handOverBytes && policy != .onClose {
                failed = failed ?? hand(lines)
                lines.removeAll(keepingCapacity: true)
            }
        }
        return failed
    }

    /// Hands lines to the sink; returns its failure.
    private func hand(_ lines: [UInt8]) -> JournalError? {
        guard !lines.isEmpty else { return nil }
        do {
            try sink.append(lines)
            return nil
        } catch {
            return Self.journalError(error)
        }
    }

    /// A sink's error as the recorder reports it.
    private static func journalError(_ error: any Error) -> JournalError {
        (error as? JournalError) ?? .writeFailed(path: "journal sink", reason: String(describing: error))
    }
}
