import Foundation

/// Opens a journal for reading: indexes it once, then decodes lines on demand.
///
/// Opening maps the file and looks only at the start of each line (`{"type":"tx","seq":N`) to
/// index transactions and keyframes, so it runs at close to the speed of counting lines. The
/// state at any step is the nearest keyframe at or before it plus at most `keyframeInterval`
/// transactions.
///
/// ## Example
/// ```swift
/// let journal = try JournalReader(path: "session.jsonl")
/// let state = try journal.state(at: journal.lastStep)
/// print(state.graphDescription())
/// ```
public final class JournalReader: @unchecked Sendable {
    // Unchecked: every stored property is immutable after `init`.

    /// The journal's path, as given.
    public let path: String
    /// The header line.
    public let header: JournalHeader
    /// Recoverable problems found while opening (a torn last line, say).
    public let warnings: [JournalWarning]
    /// The step of the first keyframe: the state before the first recorded transaction.
    public let firstStep: Int
    /// The step after the last recorded transaction.
    public let lastStep: Int
    /// The file's size in bytes.
    public let fileSize: Int

    private let data: MappedFile
    /// Byte offset of each transaction's line, indexed by `seq - firstStep - 1`.
    private let transactionOffsets: [Int]
    /// Line number (1-based) of the first transaction line, for messages.
    private let transactionLines: [Int32]
    /// Keyframes in step order: step, byte offset, line number.
    private let keyframes: [(step: Int, offset: Int, line: Int)]
    /// Source locations by number (format 2).
    private let locations: [Int: String]

    /// The number of transactions recorded.
    public var transactionCount: Int {
        lastStep - firstStep
    }

    /// The steps of the keyframes, in order.
    public var keyframeSteps: [Int] {
        keyframes.map(\.step)
    }

    /// Opens and indexes a journal.
    ///
    /// - Parameters:
    ///   - path: The journal file.
    ///   - progress: Called now and then with the fraction of the file indexed.
    /// - Throws: ``JournalError`` naming the file (and line) when it cannot be read, is not a
    ///   journal, has an unsupported version, or has a malformed or out-of-sequence line.
    public init(path: String, progress: ((Double) -> Void)? = nil) throws(JournalError) {
        self.path = path
        let data: MappedFile
        do {
            data = try MappedFile(path: path)
        } catch {
            throw .cannotRead(path: path, reason: Self.reason(for: error, path: path))
        }
        guard !data.isEmpty else {
            throw .empty(path: path)
        }
        self.data = data
        fileSize = data.count
        var index = JournalIndexer(path: path, data: data)
        try index.run(progress: progress)
        header = index.header!
        warnings = index.warnings
        firstStep = index.firstStep!
        lastStep = index.lastStep
        transactionOffsets = index.transactionOffsets
        transactionLines = index.transactionLines
        keyframes = index.keyframes
        locations = index.locations
    }

    /// The transaction with sequence number `seq`.
    ///
    /// - Parameters:
    ///   - seq: The transaction's number.
    ///   - decodingValuesOf: The atoms whose values to decode (all when `nil`). The value
    ///     entries of the others carry only their `id` (and `unchanged` for an equal write):
    ///     commands that list transactions read
    ///     the envelope alone and never parse a value.
    /// - Throws: ``JournalError/stepOutOfRange(path:step:first:last:)`` or a malformed-line error.
    public func transaction(_ seq: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(JournalError) -> TransactionRecord {
        guard seq > firstStep, seq <= lastStep else {
            throw .stepOutOfRange(path: path, step: seq, first: firstStep + 1, last: lastStep)
        }
        let position = seq - firstStep - 1
        let line = Int(transactionLines[position])
        guard header.version >= 2 else {
            return try scan(offset: transactionOffsets[position], line: line) { bytes, range in
                let object = try ObjectLine(bytes: bytes, range: range, decoding: { atoms?.contains($0) ?? true })
                var record = try JSONDecoder().decode(TransactionRecord.self, from: Data(object.envelope))
                if let values = object.values {
                    record.values = values + object.undecoded.map { ValueEntry(id: $0) }
                }
                return record
            }
        }
        let version = header.version
        let locations = locations
        return try scan(offset: transactionOffsets[position], line: line) { bytes, range in
            try CompactTransactionLine(bytes: bytes, range: range, version: version)
                .record(bytes: bytes, locations: locations, decoding: { atoms?.contains($0) ?? true })
        }
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
        guard step >= firstStep, step <= lastStep else {
            throw .stepOutOfRange(path: path, step: step, first: firstStep, last: lastStep)
        }
        let keyframe = keyframes[lastKeyframe(atOrBefore: step)]
        var state = try keyframeState(keyframe, decodingValuesOf: atoms)
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
        let keyframe = keyframes[lastKeyframe(atOrBefore: max(firstStep, min(step, lastStep)))]
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

    private func keyframeState(_ keyframe: (step: Int, offset: Int, line: Int), decodingValuesOf atoms: Set<Int>?) throws(JournalError) -> JournalState {
        let line = try scan(offset: keyframe.offset, line: keyframe.line) { bytes, range in
            try KeyframeLine(bytes: bytes, range: range, decoding: { atoms?.contains($0) ?? true })
        }
        let state = JournalState(keyframe: line.record, undecoded: line.undecoded)
        do {
            try state.checkReferences()
        } catch {
            throw .malformedLine(path: path, line: keyframe.line, reason: "the keyframe \(error.message)")
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
        let record = try transaction(seq, decodingValuesOf: atoms)
        do {
            try state.apply(record, decoding: { atoms?.contains($0) ?? true })
        } catch {
            throw .malformedLine(path: path, line: Int(transactionLines[seq - firstStep - 1]), reason: error.message)
        }
        return record
    }

    /// Reads the line at `offset` in place with `body`.
    private func scan<Result>(offset: Int, line: Int, _ body: (UnsafeRawBufferPointer, Range<Int>) throws -> Result) throws(JournalError) -> Result {
        let outcome: Swift.Result<Result, any Error> = data.withUnsafeBytes { raw in
            let end = JournalIndexer.nextNewline(in: raw, from: offset)
            return Swift.Result { try body(raw, offset..<end) }
        }
        switch outcome {
        case .success(let result):
            return result
        case .failure(let error):
            let bytes = JournalIndexer.line(in: data, at: offset)
            if String(validating: bytes, as: UTF8.self) == nil {
                throw .notUTF8(path: path, line: line)
            }
            throw .malformedLine(path: path, line: line, reason: JournalIndexer.describe(error))
        }
    }

    /// Index of the last keyframe whose step is at most `step` (binary search).
    private func lastKeyframe(atOrBefore step: Int) -> Int {
        var low = 0
        var high = keyframes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if keyframes[middle].step <= step {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    private static func reason(for error: any Error, path: String) -> String {
        guard let error = error as? POSIXError else {
            return "\(error)"
        }
        switch error.code {
        case .ENOENT: return "no such file"
        case .EACCES, .EPERM: return "permission denied"
        case .EISDIR: return "it is a directory"
        case .ELOOP: return "too many levels of symbolic links (a link loop)"
        case .ENOTDIR: return "a part of the path is not a directory"
        default: return String(cString: strerror(error.code.rawValue)).lowercased()
        }
    }
}
