#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
package final class JournalFollower {
    /// What a poll found.
    package enum Event: Sendable, Equatable {
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
    package let path: String
    /// The live atoms, by number, and those released by the transactions the last poll
    /// returned (so that the caller can name them): a released atom's declaration is dropped
    /// at the next poll, so this follows the live atoms, not every atom the journal declared.
    package private(set) var declarations: [Int: AtomDeclaration] = [:]
    /// Changes whenever ``declarations`` does.
    package private(set) var declarationsRevision = 0
    /// Atoms released by the transactions the last poll returned.
    private var releasedSincePoll: [Int] = []
    /// Whether the end line was read.
    package private(set) var isEnded = false

    private var file: OpenFile?
    private var locations: [Int: String] = [:]
    private var check = SequenceCheck()
    private var header: JournalHeader?

    /// The file being read.
    private struct OpenFile {
        var descriptor: Int32
        var path: String
        /// The segment's number (folders only).
        var segment: Int?
        var offset = 0
        var lineNumber = 0
        var identity: (device: UInt, inode: UInt)
    }

    /// Creates a follower; nothing is read until ``poll()``.
    package init(path: String) {
        self.path = path
    }

    deinit {
        if let file { close(file.descriptor) }
    }

    /// Reads what was appended since the last poll.
    ///
    /// - Throws: ``JournalError`` when a line is malformed, the journal is not one, or it
    ///   cannot be read.
    package func poll() throws(JournalError) -> [Event] {
        var events: [Event] = []
        if !releasedSincePoll.isEmpty {
            for id in releasedSincePoll { declarations[id] = nil }
            releasedSincePoll = []
            declarationsRevision += 1
        }
        guard !isEnded else { return events }
        if file == nil {
            guard try openNext(after: nil, events: &events) else { return events }
        }
        while var current = file {
            do {
                try readAvailable(&current, events: &events)
            } catch {
                // Keep where reading stands, so a later poll goes on from there.
                file = current
                throw error
            }
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
            guard let segment = current.segment,
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
        releasedSincePoll = []
        declarationsRevision += 1
        locations = [:]
        check = SequenceCheck()
        header = nil
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

    /// Reads to the end of the file as it is now and handles each complete line
    /// (``AppendedLines``: the in-order loop every reader uses); a line still being written
    /// waits for its newline.
    private func readAvailable(_ current: inout OpenFile, events: inout [Event]) throws(JournalError) {
        // Where reading stands after each line handled: a line that fails is read again by
        // the next poll, and none before it.
        var (offset, lineNumber) = (current.offset, current.lineNumber)
        let path = current.path
        defer { (current.offset, current.lineNumber) = (offset, lineNumber) }
        do {
            try readLines(current.descriptor, path: path, offset: &offset, lineNumber: &lineNumber, events: &events)
        } catch .changedWhileReading {
            // Cut short between its size and its bytes being read: a new recording, which
            // `wasReplaced` finds next; what was read before stands.
        }
    }

    /// Handles the complete lines from `offset`, moving `offset` and `lineNumber` past each.
    private func readLines(_ descriptor: Int32, path: String, offset: inout Int, lineNumber: inout Int, events: inout [Event]) throws(JournalError) {
        _ = try AppendedLines.read(descriptor, path: path, from: offset) { raw, range, lineOffset throws(JournalError) in
            do {
                try handle(raw, range, number: lineNumber + 1, path: path, events: &events)
            } catch {
                throw JournalError.line(error, path: path, bytes: raw, range: range, number: lineNumber + 1)
            }
            (offset, lineNumber) = (lineOffset + range.count + 1, lineNumber + 1)
            return !isEnded
        }
    }

    /// One complete line, read by the same scanner and checked by the same sequence rules as
    /// every other reader; a new segment's first keyframe may jump ahead (the segments
    /// between were deleted by the size limit). What it throws, the caller words as the
    /// line's error.
    private func handle(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, number: Int, path: String, events: inout [Event]) throws {
        if number == 1 {
            header = try LineScanner.header(in: raw, range, path: path)
            return
        }
        let scanner = LineScanner(version: header?.version ?? JournalFormat.majorVersion)
        let kind = try scanner.kind(of: range, in: raw)
        if case .keyframe(let seq) = kind, number == 2, let expected = check.expected, seq > expected - 1 {
            events.append(.skipped(from: expected, to: seq))
            check = SequenceCheck()
        }
        do throws(SequenceCheck.Violation) {
            try check.take(kind)
        } catch {
            throw error.error(path: path, line: number)
        }
        switch kind {
        case .transaction:
            let record = try scanner.transaction(in: raw, range, locations: locations, decoding: { _ in false })
            if let declared = record.declare, !declared.isEmpty {
                for atom in declared { declarations[atom.id] = atom }
                declarationsRevision += 1
            }
            releasedSincePoll.append(contentsOf: record.released ?? [])
            events.append(.transaction(record))
        case .keyframe:
            let keyframe = try scanner.keyframe(in: raw, range, decoding: { _ in false }).record
            for atom in keyframe.atoms where declarations[atom.id] == nil {
                declarations[atom.id] = atom
                declarationsRevision += 1
            }
            for location in keyframe.locs ?? [] { locations[location.id] = location.at }
        case .location:
            let location = try scanner.location(in: raw, range)
            locations[location.id] = location.at
        case .end:
            isEnded = true
            events.append(.ended)
        case .timing, .unknown:
            break
        }
    }
}
