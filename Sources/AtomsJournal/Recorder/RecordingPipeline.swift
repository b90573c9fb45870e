import Atoms
import Foundation

/// The recorder's one thread: takes what the main actor captured, turns it into lines and
/// hands them to the sink itself, synchronously, in order. The only lock is the one the main
/// actor takes to stage a transaction; the sink is a plain synchronous thing this thread calls.
///
/// The main actor only appends under the lock; the thread is woken only when it sleeps, and
/// pauses briefly after each batch, so a busy session neither wakes it per transaction nor
/// waits for it. When lines reach the sink is the sink's ``JournalSink/flushPolicy``: after
/// each batch, when the oldest line built has waited an interval (the thread's wait times
/// out then), or at `flush()` and `close()`.
final class RecordingPipeline: @unchecked Sendable {
    /// What the main actor hands over, in the order it arrives: a transaction (with the
    /// timings of earlier ones, whose lines come first, when it carries any), or timings
    /// alone (at a flush or close).
    enum Item {
        case transaction(CapturedTransaction, timingBefore: StagedTimings?)
        case timing(StagedTimings)
    }

    // Unchecked (and unchecked exclusivity, touched per transaction): `staging`, the flags,
    // the flush counters and `failure` are guarded by `condition`; `builder`, `batch` and the
    // sink are touched only by the pipeline's thread once it started.
    private let condition = NSCondition()
    /// Told on the pipeline's thread after each batch what the mirror holds (set by the tests
    /// that watch the recorder's memory; `nil` otherwise).
    private let observer: (@Sendable (RecorderObservation) -> Void)?
    private let sink: any JournalSink
    private let policy: FlushPolicy
    @exclusivity(unchecked) private var builder: TransactionLineBuilder
    /// What the main actor captured, waiting for the thread (the capture slots stage into it).
    private let staging: CaptureStaging
    /// What the thread took from `staging` and is turning into lines.
    private let batch = CaptureStaging()
    @exclusivity(unchecked) private var isWaiting = false
    @exclusivity(unchecked) private var isProcessing = false
    @exclusivity(unchecked) private var isClosing = false
    @exclusivity(unchecked) private var isFinished = false
    /// Flushes asked for, and the last one done: a flush waits until the thread handed the
    /// sink every line queued before it asked.
    @exclusivity(unchecked) private var flushesRequested = 0
    @exclusivity(unchecked) private var flushesDone = 0
    /// Batches the thread has taken from the staging and finished: a drain waits for the batch
    /// that holds what was queued when it was called, not for what is queued after.
    @exclusivity(unchecked) private var batchesTaken = 0
    @exclusivity(unchecked) private var batchesDone = 0
    /// The first failure of the sink, reported by the next `flush()` or `close()`.
    @exclusivity(unchecked) private var failure: JournalError?

    /// How long the thread lets transactions accumulate after a batch, in microseconds.
    private static let batchPause: UInt32 = 200
    /// A long batch reaches the sink in pieces of about this size, not all at its end (unless
    /// the policy keeps lines until the recorder closes).
    private static let handOverBytes = 64 << 10

    /// Writes the journal's opening lines (`opening`, a header and a keyframe) at once, on
    /// the caller's thread, so a program killed a moment later leaves a journal that opens;
    /// then starts the thread. `builder` already holds the recorded state's starting point.
    init(
        sink: any JournalSink, builder: TransactionLineBuilder, staging: CaptureStaging, opening: [UInt8],
        observer: (@Sendable (RecorderObservation) -> Void)? = nil
    ) {
        self.observer = observer
        self.sink = sink
        self.policy = sink.flushPolicy
        self.builder = builder
        self.staging = staging
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

    /// Takes the lock for a capture and returns where the capture slots stage a
    /// transaction's changed values, until ``endCapture(_:)`` queues its item.
    func beginCapture() -> CaptureStaging {
        condition.lock()
        return staging
    }

    /// Queues the item of the capture begun with ``beginCapture()`` and releases the lock,
    /// then the values the recorder's thread is done with.
    func endCapture(_ item: consuming Item) {
        var released: [Any] = []
        staging.items.append(item)
        if isWaiting {
            condition.signal()
        }
        if !staging.graveyard.isEmpty {
            swap(&released, &staging.graveyard)
        }
        condition.unlock()
        // `released` goes out of scope here, outside the lock.
        _ = released
    }

    /// Queues the timings waiting, alone.
    func append(_ timings: inout CapturedTimings) {
        let staging = beginCapture()
        endCapture(.timing(timings.stage(into: staging)))
    }

    /// Returns once every transaction queued before the call has been built into lines (and,
    /// unless the policy holds them back, handed to the sink); what a busy program queues
    /// meanwhile is not waited for.
    func drain() {
        condition.lock()
        // What is staged goes whole into the next batch the thread takes; with nothing staged,
        // the batch being built (if any) is the last one to wait for.
        let ticket = staging.isEmpty ? batchesTaken : batchesTaken + 1
        while batchesDone < ticket && !isFinished {
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
        if isWaiting {
            condition.signal()
        }
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
        condition.lock()
        while true {
            while staging.isEmpty && !isClosing && flushesDone == flushesRequested {
                isWaiting = true
                if case .interval(let milliseconds) = policy, let waitingSince {
                    let due = waitingSince.addingTimeInterval(Double(max(1, milliseconds)) / 1000)
                    let woken = condition.wait(until: due)
                    isWaiting = false
                    if !woken { break }
                } else {
                    condition.wait()
                    isWaiting = false
                }
            }
            let closing = isClosing
            let flush = flushesRequested
            let hasItems = !staging.isEmpty
            if hasItems {
                staging.handOver(to: batch)
                isProcessing = true
                batchesTaken += 1
            }
            condition.unlock()
            var failed: JournalError?
            if hasItems {
                failed = processBatch(lines: &lines)
            }
            if !lines.isEmpty, closing || flush > flushesDone || isDue(since: waitingSince, bytes: lines.count) {
                failed = failed ?? hand(lines)
                lines.removeAll(keepingCapacity: true)
                waitingSince = nil
            } else if !lines.isEmpty, waitingSince == nil {
                waitingSince = Date()
            }
            let retired = hasItems ? builder.takeRetired() : []
            if hasItems, let observer {
                observer(RecorderObservation(mirror: builder.mirrorSizes, recordedThrough: builder.recordedThrough))
            }
            condition.lock()
            if let failed, failure == nil {
                failure = failed
            }
            if hasItems {
                batch.finishBatch()
                if !retired.isEmpty {
                    staging.graveyard.append(contentsOf: retired)
                }
                isProcessing = false
                batchesDone += 1
            }
            if lines.isEmpty, flush > flushesDone {
                flushesDone = flush
            }
            condition.broadcast()
            if closing && staging.isEmpty {
                break
            }
            if hasItems && staging.isEmpty && !isClosing {
                condition.unlock()
                usleep(Self.batchPause)
                condition.lock()
            }
        }
        condition.unlock()
        // Closing: the end line, then durable, then closed.
        var ending = lines
        ending.append(contentsOf: builder.endLine())
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
    /// the batch (``CaptureStaging/finishBatch()``) with the lock held.
    ///
    /// - Returns: The sink's first failure, if any.
    private func processBatch(lines: inout [UInt8]) -> JournalError? {
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
