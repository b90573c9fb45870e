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

/// Stores journal lines in a file; or, for a bounded journal, in the segments of a folder,
/// starting a new one when the recorder asks and deleting the oldest.
///
/// The file is created with mode 0600 (journals may hold private state). A plain synchronous
/// writer: the recorder's thread calls it, one call at a time, and each ``append(_:)`` is a
/// `write(2)` of the batch it is given (when batches are handed over is the ``flushPolicy``,
/// which the recorder's thread follows). ``close()`` calls `fsync` after ``sync()``. Earlier
/// lines are never rewritten, so a crash can only lose lines not yet handed over.
public final class FileJournalSink: JournalSink, @unchecked Sendable {
    // Unchecked: `descriptor` and the segment writer are touched by one thread at a time, the
    // recorder's (or the caller's before recording starts and after it ended).
    private let path: String
    private var descriptor: Int32
    /// For a bounded journal: the folder's segments.
    private let segmentWriter: SegmentWriter?
    /// When the recorder hands this sink its lines.
    public let flushPolicy: FlushPolicy

    /// Creates the file at `path` with mode 0600. An existing journal there is replaced, not
    /// truncated: a new file is renamed over it, so a program still reading the old one
    /// (`atoms-inspect step`, say) goes on reading it whole.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when it cannot be opened.
    public init(path: String, flush policy: FlushPolicy = .everyTransaction) throws {
        self.path = path
        self.flushPolicy = policy
        segmentWriter = nil
        descriptor = try Self.createReplacing(path)
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
        self.flushPolicy = policy
        segmentWriter = try SegmentWriter(directory: path, limit: limit, rotationHook: rotationHook)
        descriptor = -1
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

    /// The bounded journal's size limit; `nil` for a single file.
    public var sizeLimit: Int? {
        segmentWriter?.limit
    }

    /// Writes the lines (`write(2)`, retrying partial writes).
    ///
    /// - Throws: ``JournalError/writeFailed(path:reason:)``.
    public func append(_ lines: [UInt8]) throws {
        guard !lines.isEmpty, descriptor >= 0 else { return }
        segmentWriter?.didWrite(lines.count)
        try SegmentWriter.write(lines, to: descriptor, path: path)
    }

    /// Starts the next segment of a bounded journal with its opening lines (a single file
    /// appends them). The previous segment is complete, so it is closed (not synced: a crash of
    /// the program loses nothing written, and syncing each segment would stall the recorder).
    public func startSegment(opening: [UInt8]) throws {
        guard let segmentWriter else {
            try append(opening)
            return
        }
        let next = try segmentWriter.startSegment(opening: opening)
        if descriptor >= 0 {
            _ = systemClose(descriptor)
        }
        descriptor = next
    }

    /// Makes the lines written durable (`fsync`).
    ///
    /// - Throws: ``JournalError/writeFailed(path:reason:)``.
    public func sync() throws {
        guard descriptor >= 0 else { return }
        if fsync(descriptor) != 0 {
            throw JournalError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Closes the file; later appends are ignored.
    public func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
        }
        descriptor = -1
    }

    deinit {
        // A sink never handed to a recorder (or whose recorder never closed) still lets go of
        // its file.
        if descriptor >= 0 {
            _ = systemClose(descriptor)
        }
    }
}
