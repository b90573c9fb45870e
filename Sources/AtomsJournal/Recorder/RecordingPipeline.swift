import Atoms
import Foundation

/// The recorder's own thread: takes captured transactions from the main actor and turns them
/// into lines for the sink, in order. For a sink that receives lines at commit, there is no
/// thread: lines are built as transactions arrive.
///
/// The main actor only appends to a locked queue; the thread is woken only when it sleeps, and
/// pauses briefly after each batch, so a busy session neither wakes it per transaction nor
/// waits for it.
final class RecordingPipeline: @unchecked Sendable {
    /// What the main actor hands over, in the order it arrives: a transaction (with the
    /// timing of an earlier one, whose line comes first, when it carries one), or a timing
    /// alone.
    enum Item {
        case transaction(CapturedTransaction, timingBefore: CapturedTiming?)
        case timing(CapturedTiming)
    }

    // Unchecked (and unchecked exclusivity, touched per transaction): `staging` and the
    // flags are guarded by `condition`; `builder` and `batch`
    // are touched only by the pipeline's thread once it started (or under the lock, for a
    // sink that takes lines at commit).
    private let condition = NSCondition()
    private let sink: any JournalSink
    @exclusivity(unchecked) private var builder: TransactionLineBuilder
    /// What the main actor captured, waiting for the thread (the capture slots stage into it).
    private let staging: CaptureStaging
    /// What the thread took from `staging` and is turning into lines.
    private let batch = CaptureStaging()
    @exclusivity(unchecked) private var isWaiting = false
    @exclusivity(unchecked) private var isProcessing = false
    @exclusivity(unchecked) private var isClosing = false
    @exclusivity(unchecked) private var isFinished = false
    @exclusivity(unchecked) private var hasEnded = false

    /// How long the thread lets transactions accumulate after a batch, in microseconds.
    private static let batchPause: UInt32 = 200
    /// A long batch reaches the sink in pieces of about this size, not all at its end.
    private static let handOverBytes = 64 << 10

    /// Starts the thread; `builder` already holds the recorded state's starting point.
    init(sink: any JournalSink, builder: TransactionLineBuilder, staging: CaptureStaging) {
        self.sink = sink
        self.builder = builder
        self.staging = staging
        guard !sink.receivesLinesAtCommit else {
            isFinished = true
            return
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
        if sink.receivesLinesAtCommit {
            staging.handOver(to: batch)
            var lines: [UInt8] = []
            processBatch(lines: &lines)
            batch.finishBatch()
            sink.write(lines: lines)
            released = builder.takeRetired()
            condition.unlock()
            return
        }
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

    /// Queues a transaction's timing alone.
    func append(_ timing: CapturedTiming) {
        _ = beginCapture()
        endCapture(.timing(timing))
    }

    /// Returns once every queued transaction has reached the sink.
    func drain() {
        condition.lock()
        while (!staging.isEmpty || isProcessing) && !isFinished {
            condition.wait()
        }
        condition.unlock()
    }

    /// What the line builder's mirror holds, once every queued transaction has reached the
    /// sink (the thread leaves the builder alone while the lock is held and nothing is queued).
    func mirrorSizes() -> RecorderMirrorSizes {
        condition.lock()
        defer { condition.unlock() }
        while (!staging.isEmpty || isProcessing) && !isFinished {
            condition.wait()
        }
        return builder.mirrorSizes
    }

    /// Processes what is queued, stops the thread, and ends the journal with its end line.
    func finish() {
        condition.lock()
        isClosing = true
        condition.broadcast()
        while !isFinished {
            condition.wait()
        }
        if !hasEnded {
            hasEnded = true
            sink.write(lines: builder.endLine())
        }
        condition.unlock()
    }

    /// Turns the batch into lines, handing them to the sink in pieces and starting segments
    /// where the builder says. Leaves the last lines in `lines`; the caller empties the batch
    /// (``CaptureStaging/finishBatch()``) with the lock held.
    private func processBatch(lines: inout [UInt8]) {
        for item in batch.items {
            builder.appendLines(for: item, changes: batch.changes, to: &lines)
            if let opening = builder.takeSegmentOpening() {
                sink.write(lines: lines)
                lines.removeAll(keepingCapacity: true)
                sink.beginSegment(opening: opening)
            } else if lines.count >= Self.handOverBytes {
                sink.write(lines: lines)
                lines.removeAll(keepingCapacity: true)
            }
        }
    }

    private func run() {
        var lines: [UInt8] = []
        condition.lock()
        while true {
            while staging.isEmpty && !isClosing {
                isWaiting = true
                condition.wait()
                isWaiting = false
            }
            if staging.isEmpty {
                break
            }
            staging.handOver(to: batch)
            isProcessing = true
            condition.unlock()
            // One hand-over to the sink per batch: one lock, no string per line.
            lines.removeAll(keepingCapacity: true)
            processBatch(lines: &lines)
            sink.write(lines: lines)
            let retired = builder.takeRetired()
            condition.lock()
            batch.finishBatch()
            if !retired.isEmpty {
                staging.graveyard.append(contentsOf: retired)
            }
            isProcessing = false
            condition.broadcast()
            if !isClosing && staging.isEmpty {
                condition.unlock()
                usleep(Self.batchPause)
                condition.lock()
            }
        }
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }
}
