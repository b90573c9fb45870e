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
import Synchronization

/// Opens a journal for reading, then decodes lines on demand.
///
/// A journal is a file, or for a bounded journal a folder of segments (each a journal file
/// that starts with a keyframe); both open by the path the recorder was given.
///
/// A format 4 journal opens without reading the whole file: opening reads the header, the
/// first keyframe's start and the last lines, and a step is found by binary search over the
/// file (lines are in step order). Older formats open by reading the start of every line once.
/// The state at any step is the nearest keyframe at or before it plus the transactions after
/// it (at least `keyframeInterval`, and about twice the keyframe's bytes).
///
/// ## Example
/// ```swift
/// let journal = try JournalReader(path: "session.jsonl")
/// let state = try journal.state(at: journal.lastStep)
/// print(state.graphDescription())
/// ```
public final class JournalReader: Sendable {
    /// The journal's path, as given.
    public let path: String
    /// The header line (of the oldest segment, for a bounded journal).
    public let header: JournalHeader
    /// Recoverable problems found while opening (a torn last line, say).
    public let warnings: [JournalWarning]
    /// The step of the first keyframe: the state before the first recorded transaction.
    public let firstStep: Int
    /// The step after the last recorded transaction.
    public let lastStep: Int
    /// The journal's size in bytes (of all its segments).
    public let fileSize: Int
    /// Whether the journal ends with the end line its recorder writes when it closes it; a
    /// journal still being recorded (or cut short by a crash, or of format 3 or earlier)
    /// does not.
    public let isEnded: Bool
    /// How many times the recording program waited for its recorder to take the transactions
    /// it handed over, as the end line says (0 when it never did or the journal has none).
    package let recorderWaits: Int
    /// Whether the journal is a folder of segments kept within a size limit.
    public let isBounded: Bool
    /// For a bounded journal: the number of its oldest segment (from 1); the segments before
    /// it were deleted by the size limit.
    public let firstSegment: Int
    /// For a bounded journal: transactions recorded before the oldest segment kept, deleted
    /// by the size limit (0 for an unbounded journal).
    public let droppedTransactions: Int

    private let segments: [any JournalSegment]
    private let recent = Mutex(RecentTransactions())

    /// The files, oldest first.
    var allSegments: [any JournalSegment] { segments }

    /// The number of transactions recorded.
    public var transactionCount: Int {
        lastStep - firstStep
    }

    /// The number of files: segments of a bounded journal, or 1.
    public var segmentCount: Int {
        segments.count
    }

    /// The steps of the keyframes, in order.
    ///
    /// - Complexity: Reads the start of every line of a format 4 journal.
    public var keyframeSteps: [Int] {
        get throws(JournalError) {
            var steps: [Int] = []
            for segment in segments {
                let own = try segment.keyframeSteps()
                // A segment's first keyframe repeats the step the previous segment ended at.
                steps += own.drop { $0 <= (steps.last ?? -1) }
            }
            return steps
        }
    }

    /// Opens a journal: a file, or a bounded journal's folder.
    ///
    /// - Parameters:
    ///   - path: The journal file or folder.
    ///   - progress: Called now and then with the fraction of the file indexed (only journals
    ///     of format 3 and earlier are read whole when they open).
    /// - Throws: ``JournalError`` naming the file (and line) when it cannot be read, is not a
    ///   journal, has an unsupported version, or has a malformed or out-of-sequence line.
    public init(path: String, progress: ((Double) -> Void)? = nil) throws(JournalError) {
        self.path = path
        var status = stat()
        let segments: [any JournalSegment]
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            let opened = try Self.openSegments(in: path)
            segments = opened.segments
            isBounded = true
            firstSegment = opened.first
        } else {
            segments = [try Self.openFile(path, progress: progress)]
            isBounded = false
            firstSegment = 1
        }
        self.segments = segments
        header = segments[0].header
        warnings = segments.flatMap(\.warnings)
        firstStep = segments[0].firstStep
        lastStep = segments[segments.count - 1].lastStep
        fileSize = segments.reduce(0) { $0 + $1.fileSize }
        isEnded = segments[segments.count - 1].isEnded
        recorderWaits = segments[segments.count - 1].recorderWaits
        droppedTransactions = max(0, firstStep - (header.startStep ?? firstStep))
    }

    /// Opens one journal file.
    private static func openFile(_ path: String, progress: ((Double) -> Void)?) throws(JournalError) -> any JournalSegment {
        let file = try JournalFile(path: path)
        var reader = LineReader(file: file)
        let (header, headerEnd) = try readHeader(&reader)
        if header.version >= JournalFormat.firstSeekableVersion {
            return try SeekableSegment(file: file, header: header, headerEnd: headerEnd)
        }
        return try ScannedSegment(file: file, header: header, headerEnd: headerEnd, progress: progress)
    }

    /// Opens a bounded journal's segments, oldest first, checking that each starts where the
    /// one before it ends.
    private static func openSegments(in directory: String) throws(JournalError) -> (segments: [any JournalSegment], first: Int) {
        let listed: [(number: Int, path: String)]
        do {
            listed = try SegmentDirectory.segments(in: directory)
        } catch {
            throw .cannotRead(path: directory, reason: (error as? POSIXError).map { JournalFile.reason($0.code.rawValue) } ?? "\(error)")
        }
        var segments: [any JournalSegment] = []
        var first = 0
        for (number, path) in listed {
            let segment: any JournalSegment
            do {
                segment = try openFile(path, progress: nil)
            } catch .cannotRead(_, let reason) where segments.isEmpty && reason == "no such file" {
                // The recorder deleted it (as the oldest) since the folder was listed.
                continue
            }
            if let previous = segments.last, segment.firstStep != previous.lastStep {
                throw .malformedLine(path: path, line: 2, reason: "this segment starts at step \(segment.firstStep), but the one before it ends at step \(previous.lastStep) — a segment is missing or damaged")
            }
            if segments.isEmpty { first = number }
            segments.append(segment)
        }
        guard !segments.isEmpty else {
            throw .cannotRead(path: directory, reason: "the folder holds no journal segments (it is not a bounded journal, or its recording has not started)")
        }
        return (segments, first)
    }

    /// The segment holding transaction `seq`.
    private func segment(forTransaction seq: Int) throws(JournalError) -> any JournalSegment {
        guard seq > firstStep, seq <= lastStep else {
            throw .stepOutOfRange(path: path, step: seq, first: firstStep + 1, last: lastStep)
        }
        return segments.last { $0.firstStep < seq } ?? segments[0]
    }

    /// The segment whose keyframes are nearest before `step`.
    private func segment(forStep step: Int) -> any JournalSegment {
        segments.last { $0.firstStep <= step } ?? segments[0]
    }

    /// The transaction with sequence number `seq`.
    ///
    /// Reading transactions in increasing order reads each line once.
    /// - Parameters:
    ///   - seq: The transaction's number.
    ///   - decodingValuesOf: The atoms whose values to decode (all when `nil`). The value
    ///     entries of the others carry only their `id` (and `unchanged` for an equal write):
    ///     commands that list transactions read
    ///     the envelope alone and never parse a value.
    /// - Throws: ``JournalError/stepOutOfRange(path:step:first:last:)`` or a malformed-line error.
    public func transaction(_ seq: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(JournalError) -> TransactionRecord {
        try checkingForChanges { () throws(JournalError) in try keptTransaction(seq, decodingValuesOf: atoms, applying: { _ in }) }
    }

    private func keptTransaction(_ seq: Int, decodingValuesOf atoms: Set<Int>?, applying: (TransactionRecord) throws(JournalState.StateError) -> Void) throws(JournalError) -> TransactionRecord {
        var lineLength = Int.max
        // Envelopes alone (`log`, `blame`'s walk) are read in order and cheap: not kept.
        guard atoms?.isEmpty != true else {
            return try decodeTransaction(seq, decodingValuesOf: atoms, lineLength: &lineLength, applying: applying)
        }
        if let kept = recent.withLock({ $0.record(seq, decodingValuesOf: atoms) }) {
            return kept
        }
        let record = try decodeTransaction(seq, decodingValuesOf: atoms, lineLength: &lineLength, applying: applying)
        recent.withLock { $0.keep(record, seq: seq, decodingValuesOf: atoms, lineLength: lineLength) }
        return record
    }

    private func decodeTransaction(_ seq: Int, decodingValuesOf atoms: Set<Int>?, lineLength: inout Int, applying: (TransactionRecord) throws(JournalState.StateError) -> Void) throws(JournalError) -> TransactionRecord {
        let (record, length) = try segment(forTransaction: seq).transaction(seq, decoding: { atoms?.contains($0) ?? true }, applying: applying)
        lineLength = length
        return record
    }

    /// The recorded state after transaction `step` (`firstStep`: before any).
    ///
    /// - Parameters:
    ///   - step: The step.
    ///   - decodingValuesOf: The atoms whose values to decode (all when `nil`); the state
    ///     still knows which atoms are live, their declarations and the graph. Pass an empty
    ///     set for the graph alone.
    /// - Complexity: Decodes the nearest keyframe at or before `step` and the transactions
    ///   after it (at least `keyframeInterval`, and about as many bytes as the keyframe),
    ///   whatever the journal's length.
    /// - Throws: ``JournalError`` when the step is out of range or a needed line is malformed.
    public func state(at step: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(JournalError) -> JournalState {
        try checkingForChanges { () throws(JournalError) in try rebuiltState(at: step, decodingValuesOf: atoms) }
    }

    private func rebuiltState(at step: Int, decodingValuesOf atoms: Set<Int>?) throws(JournalError) -> JournalState {
        guard step >= firstStep, step <= lastStep else {
            throw .stepOutOfRange(path: path, step: step, first: firstStep, last: lastStep)
        }
        let segment = segment(forStep: step)
        let keyframe = try segment.keyframe(atOrBefore: step)
        var state = try keyframeState(segment, keyframe, decodingValuesOf: atoms)
        if keyframe.step < step {
            for seq in (keyframe.step + 1)...step {
                try apply(seq, to: &state, decodingValuesOf: atoms)
            }
        }
        return state
    }

    /// Moves a state forward to `step` by applying the transactions after it, or recomputes it
    /// from a keyframe when that is shorter (or the step is behind).
    public func advance(_ state: JournalState, to step: Int) throws(JournalError) -> JournalState {
        let target = max(firstStep, min(step, lastStep))
        let keyframe = try segment(forStep: target).keyframe(atOrBefore: target)
        guard step >= state.step, keyframe.step <= state.step else {
            return try self.state(at: step)
        }
        guard step <= lastStep else {
            throw .stepOutOfRange(path: path, step: step, first: firstStep, last: lastStep)
        }
        var state = state
        if state.step < step {
            for seq in (state.step + 1)...step {
                try apply(seq, to: &state, decodingValuesOf: nil)
            }
        }
        return state
    }

    private func keyframeState(_ segment: any JournalSegment, _ keyframe: (step: Int, offset: Int), decodingValuesOf atoms: Set<Int>?) throws(JournalError) -> JournalState {
        let line = try segment.lines.read(lineAt: keyframe.offset) { scanner, raw, range in
            try scanner.keyframe(in: raw, range, decoding: { atoms?.contains($0) ?? true })
        }
        let state = JournalState(keyframe: line.record, undecoded: line.undecoded)
        do {
            try state.checkReferences()
        } catch {
            throw .malformedLine(path: segment.path, line: segment.lineNumber(at: keyframe.offset), reason: "the keyframe \(error.message)")
        }
        return state
    }

    /// Moves a state one transaction forward: reads transaction `seq` (which must follow the
    /// state's step) and applies it.
    ///
    /// For scans that visit every step, such as `find`: each step costs one line, and only
    /// the values of `atoms` are decoded.
    /// - Parameters:
    ///   - seq: The transaction after `state.step`.
    ///   - state: The state to move, read with the same `decodingValuesOf`.
    ///   - atoms: The atoms whose values to decode (all when `nil`).
    /// - Returns: The transaction applied, with the values of `atoms` only.
    /// - Throws: ``JournalError`` when the line is malformed or does not fit the state.
    @discardableResult
    public func apply(_ seq: Int, to state: inout JournalState, decodingValuesOf atoms: Set<Int>?) throws(JournalError) -> TransactionRecord {
        // Applied as soon as its line is read: reading in order applies a segment's last
        // transaction before it reads the lines after it, so what does not fit the state
        // there is named before damage further on (as the summary and `log` name it).
        var applied = false
        let record = try checkingForChanges { () throws(JournalError) in
            try keptTransaction(seq, decodingValuesOf: atoms) { record throws(JournalState.StateError) in
                try state.apply(record, decoding: { atoms?.contains($0) ?? true })
                applied = true
            }
        }
        guard !applied else { return record }
        // A record kept from an earlier reading.
        do {
            try state.apply(record, decoding: { atoms?.contains($0) ?? true })
        } catch {
            if segments.contains(where: { $0.file.hasChanged }) {
                throw .changedWhileReading(path: path)
            }
            let segment = try self.segment(forTransaction: seq)
            let offset = try segment.transactionLine(seq).offset
            throw .malformedLine(path: segment.path, line: segment.lineNumber(at: offset), reason: error.message)
        }
        return record
    }

    /// Runs `body`; a journal that no longer reads right because its file changed while it
    /// was open (truncated, or written over by a new recording) is reported as such, not as
    /// damage.
    func checkingForChanges<Result>(_ body: () throws(JournalError) -> Result) throws(JournalError) -> Result {
        do {
            return try body()
        } catch {
            switch error {
            case .malformedLine, .notUTF8, .duplicateSequence, .missingSequence, .cannotRead:
                if segments.contains(where: { $0.file.hasChanged }) {
                    throw .changedWhileReading(path: path)
                }
            default:
                break
            }
            throw error
        }
    }
}
