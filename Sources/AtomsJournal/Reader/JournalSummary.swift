import Foundation

/// What a pass over every transaction's envelope finds: counts by cause and by atom, the
/// time span and the keyframes. Values are skipped, never decoded.
public struct JournalSummary: Sendable, Equatable {
    /// Keyframes in the journal (a bounded journal's segments each start with one).
    public var keyframes = 0
    /// Transactions per cause.
    public var causes: [String: Int] = [:]
    /// Per atom number: the transactions that wrote its value (equal writes included).
    public var valueWrites: [Int: Int] = [:]
    /// The time of the first and the last transaction, in milliseconds since recording
    /// started (`nil` without transactions).
    public var firstTime: Double?
    public var lastTime: Double?
}

extension JournalReader {
    /// Reads every transaction's envelope once: the cause, the time and the atoms written,
    /// skipping the values' bytes without decoding them, and checks that no step is missing.
    ///
    /// - Complexity: One pass over the journal's bytes.
    /// - Throws: ``JournalError`` naming the line when one is malformed or out of sequence.
    public func summary() throws(JournalError) -> JournalSummary {
        var tally = EnvelopeTally()
        var summary = JournalSummary()
        for segment in allSegments {
            if segment.header.version >= 2 {
                try tally.scan(segment, from: segment.firstStep, summary: &summary)
            } else {
                // Format 1: objects, read with the general reader.
                summary.keyframes += try segment.keyframeSteps().count
                if segment.lastStep > segment.firstStep {
                    for seq in (segment.firstStep + 1)...segment.lastStep {
                        let record = try transaction(seq, decodingValuesOf: [])
                        tally.count(cause: record.cause, time: record.t, atoms: (record.values ?? []).map(\.id))
                    }
                }
            }
        }
        tally.finish(into: &summary)
        return summary
    }
}

/// The counting behind ``JournalReader/summary()``: a byte-level reader of transaction
/// envelopes, which only looks for the brackets and quotes that end each value.
struct EnvelopeTally {
    private var causeNames: [String] = []
    private var causeCounts: [Int] = []
    private var writes: [Int] = []
    private var firstTime: Double?
    private var lastTime: Double?

    /// Counts one transaction.
    mutating func count(cause: String, time: Double, atoms: [Int]) {
        countCause(Array(cause.utf8)[...])
        for atom in atoms { countWrite(atom) }
        if firstTime == nil { firstTime = time }
        lastTime = time
    }

    func finish(into summary: inout JournalSummary) {
        for (name, count) in zip(causeNames, causeCounts) where count > 0 {
            summary.causes[name, default: 0] += count
        }
        for (atom, count) in writes.enumerated() where count > 0 {
            summary.valueWrites[atom] = count
        }
        summary.firstTime = firstTime
        summary.lastTime = lastTime
    }

    private mutating func countCause(_ bytes: ArraySlice<UInt8>) {
        // A handful of causes: a linear search over their bytes beats hashing a string.
        for index in causeNames.indices where causeNames[index].utf8.elementsEqual(bytes) {
            causeCounts[index] += 1
            return
        }
        causeNames.append(String(decoding: bytes, as: UTF8.self))
        causeCounts.append(1)
    }

    private mutating func countWrite(_ atom: Int) {
        guard atom >= 0, atom < 1 << 24 else { return }
        if atom >= writes.count {
            writes += [Int](repeating: 0, count: atom + 1 - writes.count)
        }
        writes[atom] += 1
    }

    /// Scans a segment's lines after its first keyframe.
    mutating func scan(_ segment: any JournalSegment, from firstStep: Int, summary: inout JournalSummary) throws(JournalError) {
        var expected = firstStep + 1
        var lastTransaction: Int?
        var causeCache: (bytes: [UInt8], index: Int)?
        let failure: (offset: Int, error: JournalError)? = segment.data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let size = raw.count
            var offset = 0
            var lineIndex = 0
            while offset < size {
                let found = memchr(base + offset, 0x0A, size - offset)
                let end = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? size
                defer {
                    offset = end + 1
                    lineIndex += 1
                }
                // Line 1 is the header, line 2 the first keyframe.
                guard lineIndex >= 2 else { continue }
                guard end > offset else {
                    return (offset, .malformedLine(path: segment.path, line: 0, reason: "empty line"))
                }
                let line = offset..<end
                if base[offset] == UInt8(ascii: "[") {
                    if found == nil && base[end - 1] != UInt8(ascii: "]") {
                        // A torn last line, which opening already warned about.
                        return nil
                    }
                    guard let envelope = Self.envelope(base, line) else {
                        // Written differently (spaces, keyed entries): read it in full.
                        do {
                            let transaction = try CompactTransactionLine(bytes: raw, range: line, version: segment.header.version)
                            guard transaction.seq == expected else {
                                return (offset, Self.sequenceError(transaction.seq, expected: expected, segment: segment))
                            }
                            count(cause: transaction.cause, time: transaction.t, atoms: transaction.values.map(\.id))
                            expected += 1
                            lastTransaction = nil
                            continue
                        } catch {
                            return (offset, SeekableSegment.error(error, path: segment.path, data: segment.data, line: line, number: 0))
                        }
                    }
                    guard envelope.seq == expected else {
                        return (offset, Self.sequenceError(envelope.seq, expected: expected, segment: segment))
                    }
                    expected += 1
                    if firstTime == nil {
                        firstTime = Self.time(base, envelope.time)
                    }
                    lastTransaction = offset
                    let cause = UnsafeBufferPointer(start: base + envelope.cause.lowerBound, count: envelope.cause.count)
                    if let cached = causeCache, cached.bytes.elementsEqual(cause) {
                        causeCounts[cached.index] += 1
                    } else {
                        countCause(Array(cause)[...])
                        let index = causeNames.firstIndex { $0.utf8.elementsEqual(cause) } ?? 0
                        causeCache = (Array(cause), index)
                    }
                    for atom in envelope.atoms {
                        countWrite(atom)
                    }
                    continue
                }
                switch JournalLines.sniff(raw, line: line) {
                case .keyframe(let seq)?:
                    guard seq == expected - 1 else {
                        return (offset, .malformedLine(path: segment.path, line: 0, reason: "keyframe for step \(seq) follows transaction \(expected - 1)"))
                    }
                    summary.keyframes += 1
                case .transaction?, .location?, .end?, .unknown?:
                    break
                case nil:
                    if found == nil { return nil }  // torn last line
                    do {
                        let kind = try Self.kindDecoded(raw, line)
                        if case .keyframe(let seq) = kind, seq != expected - 1 {
                            return (offset, .malformedLine(path: segment.path, line: 0, reason: "keyframe for step \(seq) follows transaction \(expected - 1)"))
                        }
                        if case .keyframe = kind { summary.keyframes += 1 }
                    } catch {
                        return (offset, SeekableSegment.error(error, path: segment.path, data: segment.data, line: line, number: 0))
                    }
                }
            }
            return nil
        }
        if let failure {
            throw Self.located(failure.error, line: segment.lineNumber(at: failure.offset))
        }
        // The first keyframe was line 2.
        summary.keyframes += 1
        if let lastTransaction {
            lastTime = segment.data.withUnsafeBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let end = JournalLines.nextNewline(in: raw, from: lastTransaction)
                return Self.envelope(base, lastTransaction..<end).map { Self.time(base, $0.time) }
            } ?? lastTime
        }
    }

    /// What a decoded object line is.
    private static func kindDecoded(_ raw: UnsafeRawBufferPointer, _ line: Range<Int>) throws -> JournalLines.Kind {
        struct Typed: Decodable {
            var type: String
            var seq: Int?
        }
        let typed = try JSONDecoder().decode(Typed.self, from: Data(UnsafeRawBufferPointer(rebasing: raw[line])))
        if typed.type == "keyframe", let seq = typed.seq {
            return .keyframe(seq: seq)
        }
        return .unknown
    }

    private static func sequenceError(_ seq: Int, expected: Int, segment: any JournalSegment) -> JournalError {
        seq < expected
            ? .duplicateSequence(path: segment.path, line: 0, seq: seq)
            : .missingSequence(path: segment.path, line: 0, expected: expected, found: seq)
    }

    /// The error with its line number filled in (it is counted only when there is an error).
    private static func located(_ error: JournalError, line: Int) -> JournalError {
        switch error {
        case .malformedLine(let path, _, let reason): .malformedLine(path: path, line: line, reason: reason)
        case .notUTF8(let path, _): .notUTF8(path: path, line: line)
        case .duplicateSequence(let path, _, let seq): .duplicateSequence(path: path, line: line, seq: seq)
        case .missingSequence(let path, _, let expected, let found): .missingSequence(path: path, line: line, expected: expected, found: found)
        default: error
        }
    }

    /// The parts of a transaction line `[seq,t,"cause",origin,at,[entries…]…` as the recorder
    /// writes them; `nil` for anything else.
    struct Envelope {
        var seq: Int
        var time: Range<Int>
        var cause: Range<Int>
        var atoms: [Int]
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    static func envelope(_ base: UnsafePointer<UInt8>, _ line: Range<Int>) -> Envelope? {
        var position = line.lowerBound + 1
        let end = line.upperBound
        func integer() -> Int? {
            let start = position
            var value = 0
            while position < end, isDigit(base[position]), position - start < 18 {
                value = value &* 10 &+ Int(base[position] &- 0x30)
                position += 1
            }
            return position > start ? value : nil
        }
        func comma() -> Bool {
            guard position < end, base[position] == UInt8(ascii: ",") else { return false }
            position += 1
            return true
        }
        guard let seq = integer(), comma() else { return nil }
        let timeStart = position
        while position < end, base[position] != UInt8(ascii: ",") { position += 1 }
        let time = timeStart..<position
        guard comma(), position < end, base[position] == UInt8(ascii: "\"") else { return nil }
        let causeStart = position + 1
        position += 1
        while position < end, base[position] != UInt8(ascii: "\""), base[position] != UInt8(ascii: "\\") { position += 1 }
        guard position < end, base[position] == UInt8(ascii: "\"") else { return nil }
        let cause = causeStart..<position
        position += 1
        guard comma(), integer() != nil, comma(), integer() != nil, comma() else { return nil }
        guard position < end, base[position] == UInt8(ascii: "[") else { return nil }
        position += 1
        var atoms: [Int] = []
        if position < end, base[position] == UInt8(ascii: "]") {
            return Envelope(seq: seq, time: time, cause: cause, atoms: atoms)
        }
        while position < end {
            // An entry: `[id,…]`; keyed entries (`{…}`) are left to the general reader.
            guard base[position] == UInt8(ascii: "["), position + 1 < end else { return nil }
            position += 1
            guard let id = integer() else { return nil }
            atoms.append(id)
            guard let after = skipToClose(base, from: position, end: end) else { return nil }
            position = after
            guard position < end else { return nil }
            if base[position] == UInt8(ascii: "]") {
                return Envelope(seq: seq, time: time, cause: cause, atoms: atoms)
            }
            guard base[position] == UInt8(ascii: ","), position + 1 < end else { return nil }
            position += 1
        }
        return nil
    }

    /// Skips to just past the `]` closing the entry whose id was read, over nested arrays,
    /// objects and strings.
    @inline(__always)
    private static func skipToClose(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int? {
        var position = start
        var depth = 0
        while position < end {
            let byte = base[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                while position < end {
                    let inner = base[position]
                    position += 1
                    if inner == UInt8(ascii: "\\") {
                        position += 1
                    } else if inner == UInt8(ascii: "\"") {
                        break
                    }
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 { return byte == UInt8(ascii: "]") ? position : nil }
                depth -= 1
            default:
                break
            }
        }
        return nil
    }

    /// The number at `range`, as a `Double`.
    private static func time(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Double {
        Double(String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)) ?? 0
    }
}
