import Foundation

/// `open(2)` for reading, outside the follower (whose own `open` would shadow it).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}

/// Reads a journal while its recorder writes it: each ``poll()`` returns the transactions
/// appended since the last one, following a bounded journal from segment to segment.
///
/// A journal that does not exist yet is waited for. Lines are read as they are completed (a
/// line the recorder is still writing waits for its newline). A journal replaced by a new
/// recording (a file that shrinks, a folder whose segments start over) is read again from its
/// start, with a ``Event/restarted`` event.
///
/// ## Example
/// ```swift
/// let follower = JournalFollower(path: "session.jsonl")
/// while true {
///     for event in try follower.poll() { … }
///     usleep(50_000)
/// }
/// ```
public final class JournalFollower {
    /// What a poll found.
    public enum Event: Sendable, Equatable {
        /// A transaction, with its value entries' ids only (values are not decoded).
        case transaction(TransactionRecord)
        /// Transactions `from…to` were deleted by a bounded journal's size limit before they
        /// could be read.
        case skipped(from: Int, to: Int)
        /// The journal was replaced by a new recording; reading starts again.
        case restarted
        /// The recorder closed the journal: nothing more will come.
        case ended
    }

    /// The journal: a file, or a bounded journal's folder.
    public let path: String
    /// Every atom declared so far, by number.
    public private(set) var declarations: [Int: AtomDeclaration] = [:]
    /// Whether the end line was read.
    public private(set) var isEnded = false

    private var file: OpenFile?
    private var locations: [Int: String] = [:]
    private var expectedSeq: Int?
    private var version = JournalFormat.majorVersion

    /// The file being read.
    private struct OpenFile {
        var descriptor: Int32
        var path: String
        /// The segment's number (folders only).
        var segment: Int?
        var offset = 0
        var lineNumber = 0
        var pending: [UInt8] = []
        var identity: (device: UInt, inode: UInt)
    }

    /// Creates a follower; nothing is read until ``poll()``.
    public init(path: String) {
        self.path = path
    }

    deinit {
        if let file { close(file.descriptor) }
    }

    /// Reads what was appended since the last poll.
    ///
    /// - Throws: ``JournalError`` when a line is malformed, the journal is not one, or it
    ///   cannot be read.
    public func poll() throws(JournalError) -> [Event] {
        var events: [Event] = []
        guard !isEnded else { return events }
        if file == nil {
            guard try openNext(after: nil, events: &events) else { return events }
        }
        while var current = file {
            try readAvailable(&current, events: &events)
            file = current
            if isEnded { break }
            if try wasReplaced(current) {
                close(current.descriptor)
                file = nil
                reset()
                events.append(.restarted)
                guard try openNext(after: nil, events: &events) else { break }
                continue
            }
            // A folder: once a newer segment exists, the current one is complete.
            guard let segment = current.segment, current.pending.isEmpty,
                try newestSegment(after: segment) != nil
            else { break }
            try readAvailable(&current, events: &events)
            close(current.descriptor)
            file = nil
            guard try openNext(after: segment, events: &events) else { break }
        }
        return events
    }

    private func reset() {
        declarations = [:]
        locations = [:]
        expectedSeq = nil
    }

    /// Opens the journal file, or the folder's first segment after `segment`; `false` when
    /// there is none yet.
    private func openNext(after segment: Int?, events: inout [Event]) throws(JournalError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return false }
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        if status.st_mode & S_IFMT != S_IFDIR {
            return try open(path, segment: nil)
        }
        let listed: [(number: Int, path: String)]
        do {
            listed = try SegmentDirectory.segments(in: path)
        } catch {
            throw .cannotRead(path: path, reason: "the folder cannot be listed")
        }
        for candidate in listed where candidate.number > (segment ?? 0) {
            // The recorder may delete the oldest segment between listing and opening.
            if try open(candidate.path, segment: candidate.number) { return true }
        }
        return false
    }

    private func open(_ path: String, segment: Int?) throws(JournalError) -> Bool {
        let descriptor = openForReading(path)
        guard descriptor >= 0 else {
            if errno == ENOENT { return false }
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        fstat(descriptor, &status)
        file = OpenFile(descriptor: descriptor, path: path, segment: segment, identity: (UInt(status.st_dev), UInt(status.st_ino)))
        return true
    }

    /// The number of the newest segment after `segment`, if any.
    private func newestSegment(after segment: Int) throws(JournalError) -> Int? {
        let listed = (try? SegmentDirectory.segments(in: path)) ?? []
        return listed.last.map(\.number).flatMap { $0 > segment ? $0 : nil }
    }

    /// Whether the file being read was replaced (a file truncated or recreated by a new
    /// recording, or a folder whose segments started over).
    private func wasReplaced(_ current: OpenFile) throws(JournalError) -> Bool {
        var status = stat()
        guard fstat(current.descriptor, &status) == 0 else { return false }
        if Int(status.st_size) < current.offset {
            return true
        }
        if current.segment == nil {
            var named = stat()
            if stat(path, &named) == 0, (UInt(named.st_dev), UInt(named.st_ino)) != current.identity {
                return true
            }
        } else if let segment = current.segment, let first = ((try? SegmentDirectory.segments(in: path)) ?? []).first?.number,
            first < segment, status.st_nlink == 0
        {
            // Our segment was deleted while older-numbered ones exist: a new recording.
            return true
        }
        return false
    }

    /// Reads to the end of the file and handles each complete line.
    private func readAvailable(_ current: inout OpenFile, events: inout [Event]) throws(JournalError) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(current.descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: current.path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            current.offset += count
            var start = current.pending.count
            current.pending.append(contentsOf: chunk[0..<count])
            var lineStart = 0
            while let newline = current.pending[start...].firstIndex(of: 0x0A) {
                current.lineNumber += 1
                let line = Array(current.pending[lineStart..<newline])
                try handle(line, in: current, events: &events)
                lineStart = newline + 1
                start = lineStart
                if isEnded { return }
            }
            current.pending.removeFirst(lineStart)
        }
    }

    /// One complete line.
    private func handle(_ line: [UInt8], in current: OpenFile, events: inout [Event]) throws(JournalError) {
        let fail = { (reason: String) in JournalError.malformedLine(path: current.path, line: current.lineNumber, reason: reason) }
        if current.lineNumber == 1 {
            guard line.first == UInt8(ascii: "{"), let header = try? JSONDecoder().decode(JournalHeader.self, from: Data(line)),
                header.format == JournalFormat.name
            else {
                throw .notAJournal(path: current.path, found: String(decoding: line.prefix(80), as: UTF8.self))
            }
            guard JournalFormat.readableMajorVersions.contains(header.version) else {
                throw .unsupportedVersion(path: current.path, version: header.version)
            }
            version = header.version
            return
        }
        do {
            try line.withUnsafeBytes { raw throws in
                let range = 0..<raw.count
                if raw.first == UInt8(ascii: "["), version >= 2 {
                    let record = try CompactTransactionLine(bytes: raw, range: range, version: version)
                        .record(bytes: raw, locations: locations, decoding: { _ in false })
                    try take(record, events: &events, fail: fail)
                    return
                }
                let typed = try JSONDecoder().decode(JournalLines.TypedObject.self, from: Data(line))
                switch typed.type {
                case "keyframe":
                    let keyframe = try KeyframeLine(bytes: raw, range: range, decoding: { _ in false }).record
                    for atom in keyframe.atoms { declarations[atom.id] = atom }
                    for location in keyframe.locs ?? [] { locations[location.id] = location.at }
                    if let expected = expectedSeq, keyframe.seq > expected - 1 {
                        events.append(.skipped(from: expected, to: keyframe.seq))
                    }
                    expectedSeq = keyframe.seq + 1
                case "loc":
                    let location = try JSONDecoder().decode(LocationRecord.self, from: Data(line))
                    locations[location.id] = location.at
                case "end":
                    isEnded = true
                    events.append(.ended)
                case "tx" where version == 1:
                    var record = try JSONDecoder().decode(TransactionRecord.self, from: Data(line))
                    record.values = record.values?.map { ValueEntry(id: $0.id) }
                    try take(record, events: &events, fail: fail)
                default:
                    break
                }
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw fail(JournalIndexer.describe(error))
        }
    }

    private func take(_ record: TransactionRecord, events: inout [Event], fail: (String) -> JournalError) throws {
        if let expected = expectedSeq, record.seq != expected {
            throw fail(record.seq < expected ? "transaction \(record.seq) appears twice" : "expected transaction \(expected) but found \(record.seq)")
        }
        for atom in record.declare ?? [] { declarations[atom.id] = atom }
        expectedSeq = record.seq + 1
        events.append(.transaction(record))
    }
}
