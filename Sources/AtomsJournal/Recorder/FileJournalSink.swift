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

/// Appends journal lines to a file from a writer thread.
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
    private var pending = Data()
    private var isWriterWaiting = false
    private var isClosing = false
    private var isWriting = false
    private var flushRequested = false
    private var failure: JournalError?

    /// Creates (or truncates) the file at `path` with mode 0600.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when it cannot be opened.
    public init(path: String, flush policy: FlushPolicy = .everyTransaction) throws {
        self.path = path
        self.policy = policy
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw JournalError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        // An existing file keeps its mode on O_TRUNC: make sure it is private.
        fchmod(descriptor, 0o600)
        // The thread holds the sink until `close()` lets it finish: a sink dropped before its
        // thread started (or while it writes) stays valid until the thread is done with it.
        let writer = Thread { [self] in self.runWriter() }
        writer.name = "atoms.journal.writer"
        // Not stored: a `Thread` keeps its block, so the sink holding it would never be freed.
        writer.start()
    }

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

    public func flush() throws {
        condition.lock()
        defer { condition.unlock() }
        flushRequested = true
        condition.broadcast()
        while (flushRequested || isWriting || !pending.isEmpty) && descriptor >= 0 && !isClosing {
            condition.wait()
        }
        if let failure { throw failure }
    }

    public func close() throws {
        condition.lock()
        guard !isClosing else {
            condition.unlock()
            if let failure { throw failure }
            return
        }
        isClosing = true
        condition.broadcast()
        while descriptor >= 0 {
            condition.wait()
        }
        condition.unlock()
        if let failure { throw failure }
    }

    /// The writer thread: waits for lines (or the interval), writes them outside the lock.
    private func runWriter() {
        condition.lock()
        while true {
            if pending.isEmpty || policy == .onClose {
                if isClosing { break }
                if flushRequested && pending.isEmpty {
                    flushRequested = false
                    condition.broadcast()
                }
                // A flush asked for before this thread came to wait (right after the sink
                // was created, say) must not wait for a wakeup that already happened.
                let flushIsWaiting = policy == .onClose && flushRequested && !pending.isEmpty
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
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            isWriting = true
            condition.unlock()
            write(batch)
            if policy == .everyTransaction {
                // Let lines accumulate briefly: a busy session then writes in batches and never
                // has to wake this thread, at the cost of at most this much delay per line.
                usleep(250)
            }
            condition.lock()
            isWriting = false
            if flushRequested && pending.isEmpty {
                flushRequested = false
                condition.broadcast()
            }
        }
        // Closing: write the rest, sync, close.
        let batch = pending
        pending.removeAll()
        condition.unlock()
        write(batch)
        if fsync(descriptor) != 0 {
            record(.writeFailed(path: path, reason: String(cString: strerror(errno))))
        }
        _ = systemClose(descriptor)
        condition.lock()
        descriptor = -1
        condition.broadcast()
        condition.unlock()
    }

    /// Writes bytes, retrying partial writes; keeps the first error.
    private func write(_ bytes: Data) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    record(.writeFailed(path: path, reason: String(cString: strerror(errno))))
                    return
                }
                offset += written
            }
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
