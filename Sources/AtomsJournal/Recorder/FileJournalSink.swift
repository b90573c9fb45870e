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

/// Appends journal lines to a file from a background queue.
///
/// The file is created with mode 0600 (journals may hold private state). Lines are buffered and
/// written by a serial queue according to the ``FlushPolicy``; `close()` writes what is left,
/// calls `fsync` and closes the file. Earlier lines are never rewritten, so a crash can only
/// lose the lines not yet written.
public final class FileJournalSink: JournalSink, @unchecked Sendable {
    // Unchecked: `buffer`, `descriptor` and `failure` are only touched on `queue`.
    private let queue = DispatchQueue(label: "atoms.journal.writer")
    private let policy: FlushPolicy
    private let path: String
    private var descriptor: Int32
    private var buffer = Data()
    private var failure: JournalError?
    private var timer: DispatchSourceTimer?

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
        if case .interval(let milliseconds) = policy {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(max(1, milliseconds)))
            timer.setEventHandler { [weak self] in self?.writeBuffer() }
            timer.resume()
            self.timer = timer
        }
    }

    public func write(line: String) {
        var bytes = Data(line.utf8)
        bytes.append(0x0A)
        let data = bytes
        queue.async { [self] in
            guard descriptor >= 0 else { return }
            buffer.append(data)
            if policy == .everyTransaction {
                writeBuffer()
            }
        }
    }

    public func flush() throws {
        try queue.sync { [self] in
            writeBuffer()
            if let failure { throw failure }
        }
    }

    public func close() throws {
        try queue.sync { [self] in
            timer?.cancel()
            timer = nil
            guard descriptor >= 0 else { return }
            writeBuffer()
            if fsync(descriptor) != 0, failure == nil {
                failure = .writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            _ = systemClose(descriptor)
            descriptor = -1
            if let failure { throw failure }
        }
    }

    /// Writes the whole buffer, retrying partial writes; keeps the first error.
    private func writeBuffer() {
        guard descriptor >= 0, !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        pending.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if failure == nil {
                        failure = .writeFailed(path: path, reason: String(cString: strerror(errno)))
                    }
                    return
                }
                offset += written
            }
        }
    }

    deinit {
        timer?.cancel()
        if descriptor >= 0 {
            writeBuffer()
            _ = systemClose(descriptor)
        }
    }
}
