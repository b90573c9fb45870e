import Foundation

/// The recorder's own thread: takes captured transactions from the main actor and turns them
/// into lines for the sink, in order. For a sink that receives lines at commit, there is no
/// thread: lines are built as transactions arrive.
///
/// The main actor only appends to a locked queue; the thread is woken only when it sleeps, and
/// pauses briefly after each batch, so a busy session neither wakes it per transaction nor
/// waits for it.
final class RecordingPipeline: @unchecked Sendable {
    /// What the main actor hands over: a transaction, or the timing of one, in the order
    /// they arrive.
    enum Item {
        case transaction(CapturedTransaction)
        case timing(CapturedTiming)
    }

    // Unchecked: `queue` and the flags are guarded by `condition`; `builder` is touched only
    // by the pipeline's thread once it started.
    private let condition = NSCondition()
    private let sink: any JournalSink
    private var builder: TransactionLineBuilder
    private var queue: [Item] = []
    /// Values the line builder let go of, to be released on the app's thread at its next
    /// append.
    private var graveyard: [Any] = []
    private var isWaiting = false
    private var isProcessing = false
    private var isClosing = false
    private var isFinished = false
    private var hasEnded = false

    /// How long the thread lets transactions accumulate after a batch, in microseconds.
    private static let batchPause: UInt32 = 200
    /// A long batch reaches the sink in pieces of about this size, not all at its end.
    private static let handOverBytes = 64 << 10

    /// Starts the thread; `builder` already holds the recorded state's starting point.
    init(sink: any JournalSink, builder: TransactionLineBuilder) {
        self.sink = sink
        self.builder = builder
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

    /// Queues a transaction, and releases the values the recorder's thread is done with.
    func append(_ transaction: CapturedTransaction) {
        append(item: .transaction(transaction))
    }

    /// Queues a transaction's timing.
    func append(_ timing: CapturedTiming) {
        append(item: .timing(timing))
    }

    private func append(item: Item) {
        var released: [Any] = []
        condition.lock()
        if sink.receivesLinesAtCommit {
            var lines: [UInt8] = []
            builder.appendLines(for: item, to: &lines)
            sink.write(lines: lines)
            if let opening = builder.takeSegmentOpening() {
                sink.beginSegment(opening: opening)
            }
            released = builder.takeRetired()
            condition.unlock()
            return
        }
        queue.append(item)
        if isWaiting {
            condition.signal()
        }
        if !graveyard.isEmpty {
            swap(&released, &graveyard)
        }
        condition.unlock()
        // `released` goes out of scope here, outside the lock.
        _ = released
    }

    /// Returns once every queued transaction has reached the sink.
    func drain() {
        condition.lock()
        while (!queue.isEmpty || isProcessing) && !isFinished {
            condition.wait()
        }
        condition.unlock()
    }

    /// What the line builder's mirror holds, once every queued transaction has reached the
    /// sink (the thread leaves the builder alone while the lock is held and nothing is queued).
    func mirrorSizes() -> RecorderMirrorSizes {
        condition.lock()
        defer { condition.unlock() }
        while (!queue.isEmpty || isProcessing) && !isFinished {
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

    private func run() {
        var batch: [Item] = []
        var lines: [UInt8] = []
        condition.lock()
        while true {
            while queue.isEmpty && !isClosing {
                isWaiting = true
                condition.wait()
                isWaiting = false
            }
            if queue.isEmpty {
                break
            }
            swap(&batch, &queue)
            isProcessing = true
            condition.unlock()
            // One hand-over to the sink per batch: one lock, no string per line.
            lines.removeAll(keepingCapacity: true)
            for item in batch {
                builder.appendLines(for: item, to: &lines)
                if let opening = builder.takeSegmentOpening() {
                    sink.write(lines: lines)
                    lines.removeAll(keepingCapacity: true)
                    sink.beginSegment(opening: opening)
                } else if lines.count >= Self.handOverBytes {
                    sink.write(lines: lines)
                    lines.removeAll(keepingCapacity: true)
                }
            }
            sink.write(lines: lines)
            batch.removeAll(keepingCapacity: true)
            let retired = builder.takeRetired()
            condition.lock()
            graveyard.append(contentsOf: retired)
            isProcessing = false
            condition.broadcast()
            if !isClosing && queue.isEmpty {
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
