import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif

/// Appends journal lines to a file from a writer thread; or, for a bounded journal, to the
/// segments of a folder, starting a new one when the recorder asks and deleting the oldest.
///
/// The file is created with mode 0600 (journals may hold private state). `write(line:)` only
/// appends to a locked buffer; one writer thread drains it according to the ``FlushPolicy``.
/// The writer is woken only when it sleeps, and pauses 0.25 ms after each batch, so a busy
/// session costs no system call per line and writes in batches. `close()` writes what is left, calls `fsync` and closes the file.
/// Earlier lines are never rewritten, so a crash can only lose lines not yet written.
public final class FileJournalSink: JournalSink, @unchecked Sendable {
    // Unchecked: the mutable state below is guarded by `condition`.
    private let condition = NSCondition()
    private let policy: FlushPolicy
    private let path: String
    private var descriptor: Int32
    /// For a bounded journal: the folder's segments. Touched by the writer thread only.
    private let segmentWriter: SegmentWriter?
    private var pending = Data()
    /// Segments to start once `pending` is written up to `offset`, in order.
    private var pendingSegments: [(offset: Int, opening: [UInt8])] = []
    private var isClosed = false
    private var isWriterWaiting = false
    private var isClosing = false
    private var isWriting = false
    private var flushRequested = false
    private var failure: JournalError?

    /// Creates the file at `path` with mode 0600. An existing journal there is replaced, not
    /// truncated: a new file is renamed over it, so a program still reading the old one
    /// (`atoms-inspect step`, say) goes on reading it whole.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when it cannot be opened.
    public init(path: String, flush policy: FlushPolicy = .everyTransaction) throws {
        self.path = path
        self.policy = policy
        segmentWriter = nil
        descriptor = try Self.createReplacing(path)
        startWriter()
    }

    /// Creates a bounded journal: the folder `path` (mode 0700) of segments that together stay
    /// within `limit` bytes plus one segment (a quarter of the limit). Segments of an earlier
    /// recording there are deleted.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when the folder cannot be made or
    ///   the limit is below 4 KB.
    public convenience init(directory path: String, limit: Int, flush policy: FlushPolicy = .everyTransaction) throws {
        try self.init(directory: path, limit: limit, flush: policy, rotationHook: nil)
    }

    /// A bounded journal as ``init(directory:limit:flush:)`` creates it, calling `rotationHook`
    /// at each moment of each segment rotation: how tests pause a rotation or copy the folder
    /// as a crash inside one would leave it.
    package init(directory path: String, limit: Int, flush policy: FlushPolicy, rotationHook: SegmentRotationHook?) throws {
        guard limit >= SegmentWriter.minimumLimit else {
            throw JournalError.cannotCreate(path: path, reason: "a journal size limit of \(limit) bytes is below the smallest, \(SegmentWriter.minimumLimit) bytes")
        }
        self.path = path
        self.policy = policy
        segmentWriter = try SegmentWriter(directory: path, limit: limit, rotationHook: rotationHook)
        descriptor = -1
        startWriter()
    }

    /// Opens a new, empty file for `path`: a regular file already there is replaced by a
    /// new one renamed over it; anything else (a FIFO, a device, a link to one) is opened
    /// and truncated in place.
    private static func createReplacing(_ path: String) throws -> Int32 {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            var template = Array(OutputFile.temporaryPath(beside: path).utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if descriptor >= 0 {
                let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                fchmod(descriptor, 0o600)
                if rename(temporary, path) == 0 {
                    return descriptor
                }
                unlink(temporary)
                _ = systemClose(descriptor)
            }
            // A folder we cannot write to but a file we can: fall back to truncating it.
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw JournalError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        // An existing file keeps its mode on O_TRUNC: make sure it is private.
        fchmod(descriptor, 0o600)
        return descriptor
    }

    /// The journal's path, and whether it is a bounded journal's folder.
    package var location: (path: String, isFolder: Bool) {
        (path, segmentWriter != nil)
    }

    /// The size at which a bounded journal starts its next segment; `nil` for a single file.
    public var segmentSize: Int? {
        segmentWriter.map { SegmentWriter.segmentSize(forLimit: $0.limit) }
    }

    /// The bounded journal's size limit; `nil` for a single file.
    public var sizeLimit: Int? {
        segmentWriter?.limit
    }

    /// Starts the next segment of a bounded journal with its opening lines (a single file just writes them).
    public func beginSegment(opening: [UInt8]) {
        guard segmentWriter != nil else {
            write(lines: opening)
            return
        }
        condition.lock()
        defer { condition.unlock() }
        guard !isClosing else { return }
        pendingSegments.append((pending.count, opening))
        if isWriterWaiting {
            condition.signal()
        }
    }

    private func startWriter() {
        // The thread holds the sink until `close()` lets it finish: a sink dropped before its
        // thread started (or while it writes) stays valid until the thread is done with it.
        let writer = Thread { [self] in self.runWriter() }
        writer.name = "atoms.journal.writer"
        // Not stored: a `Thread` keeps its block, so the sink holding it would never be freed.
        writer.start()
    }

    /// Queues a line for the writer thread.
    public func write(line: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosing else { return }
        var line = line
        line.withUTF8 { pending.append(contentsOf: $0) }
        pending.append(0x0A)
        if policy == .everyTransaction, isWriterWaiting {
            condition.signal()
        }
    }

    /// Appends complete lines (each ending in a newline) under one lock.
    public func write(lines: [UInt8]) {
        guard !lines.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !isClosing else { return }
        pending.append(contentsOf: lines)
        if policy == .everyTransaction, isWriterWaiting {
            condition.signal()
        }
    }

    /// Writes the queued lines and waits until they are in the file.
    public func flush() throws {
        condition.lock()
        defer { condition.unlock() }
        flushRequested = true
        condition.broadcast()
        while (flushRequested || isWriting || !pending.isEmpty || !pendingSegments.isEmpty) && !isClosed && !isClosing {
            condition.wait()
        }
        if let failure { throw failure }
    }

    /// Flushes, closes the file and stops the writer thread.
    public func close() throws {
        condition.lock()
        guard !isClosing else {
            condition.unlock()
            if let failure { throw failure }
            return
        }
        isClosing = true
        condition.broadcast()
        while !isClosed {
            condition.wait()
        }
        condition.unlock()
        if let failure { throw failure }
    }

    /// The writer thread: waits for lines (or the interval), writes them outside the lock.
    private func runWriter() {
        // The lines being written: exchanged with `pending`, so neither side allocates per
        // batch (a copy of `pending` emptied in place would).
        var batch = Data()
        condition.lock()
        while true {
            if (pending.isEmpty && pendingSegments.isEmpty) || policy == .onClose {
                if isClosing { break }
                if flushRequested && pending.isEmpty && pendingSegments.isEmpty {
                    flushRequested = false
                    condition.broadcast()
                }
                // A flush asked for before this thread came to wait (right after the sink
                // was created, say) must not wait for a wakeup that already happened.
                let flushIsWaiting = policy == .onClose && flushRequested && !(pending.isEmpty && pendingSegments.isEmpty)
                isWriterWaiting = !flushIsWaiting
                switch policy {
                case _ where flushIsWaiting:
                    break
                case .interval(let milliseconds):
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(max(1, milliseconds)) / 1000))
                default:
                    condition.wait()
                }
                isWriterWaiting = false
                if policy == .onClose && !flushRequested && !isClosing { continue }
            }
            batch.removeAll(keepingCapacity: true)
            swap(&batch, &pending)
            let segments = pendingSegments
            pendingSegments.removeAll()
            isWriting = true
            condition.unlock()
            write(batch, startingSegments: segments)
            if policy == .everyTransaction {
                // Let lines accumulate briefly: a busy session then writes in batches and never
                // has to wake this thread, at the cost of at most this much delay per line.
                usleep(250)
            }
            condition.lock()
            isWriting = false
            if flushRequested && pending.isEmpty && pendingSegments.isEmpty {
                flushRequested = false
                condition.broadcast()
            }
        }
        // Closing: write the rest, sync, close.
        batch = pending
        let segments = pendingSegments
        pending.removeAll()
        pendingSegments.removeAll()
        condition.unlock()
        write(batch, startingSegments: segments)
        if descriptor >= 0 {
            if fsync(descriptor) != 0 {
                record(.writeFailed(path: path, reason: String(cString: strerror(errno))))
            }
            _ = systemClose(descriptor)
        }
        condition.lock()
        descriptor = -1
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Writes a batch, starting each segment at its place in it.
    private func write(_ batch: Data, startingSegments segments: [(offset: Int, opening: [UInt8])]) {
        var written = 0
        for segment in segments {
            write(batch[batch.startIndex + written ..< batch.startIndex + segment.offset])
            written = segment.offset
            startSegment(opening: segment.opening)
        }
        write(batch[batch.startIndex + written ..< batch.endIndex])
    }

    /// Starts a segment; the previous one is complete, so it is closed (not synced: a crash
    /// of the program loses nothing written, and syncing each segment would stall the writer).
    private func startSegment(opening: [UInt8]) {
        guard let segmentWriter else { return }
        do {
            let next = try segmentWriter.startSegment(opening: opening)
            if descriptor >= 0 {
                _ = systemClose(descriptor)
            }
            descriptor = next
        } catch {
            record(error)
        }
    }

    /// Writes bytes, retrying partial writes; keeps the first error.
    private func write(_ bytes: Data) {
        guard !bytes.isEmpty, descriptor >= 0 else { return }
        segmentWriter?.didWrite(bytes.count)
        do {
            try SegmentWriter.write(bytes, to: descriptor, path: path)
        } catch {
            record(error)
        }
    }

    private func record(_ error: JournalError) {
        condition.lock()
        if failure == nil { failure = error }
        condition.unlock()
    }

    deinit {
        // The writer thread holds the sink until it finished after `close()`: there is nothing
        // left to stop here.
    }
}
