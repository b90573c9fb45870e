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
        try summary(splittingAbove: 8 << 20)
    }

    /// ``summary()``, scanning a file in two halves on two threads when it is larger than
    /// `threshold` bytes (tests and the fuzz targets make it small).
    package func summary(splittingAbove threshold: Int) throws(JournalError) -> JournalSummary {
        var tally = EnvelopeTally()
        var summary = JournalSummary()
        for segment in allSegments {
            if segment.header.version >= 2 {
                try tally.scan(segment, from: segment.firstStep, splittingAbove: threshold, summary: &summary)
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

    private mutating func countWrite(_ atom: Int, times: Int = 1) {
        guard atom >= 0, atom < 1 << 24 else { return }
        if atom >= writes.count {
            writes += [Int](repeating: 0, count: atom + 1 - writes.count)
        }
        writes[atom] += times
    }

    /// Scans a segment's lines after its first keyframe: the two halves of the file on two
    /// threads, each with its own tally, joined where the halves meet.
    mutating func scan(_ segment: any JournalSegment, from firstStep: Int, splittingAbove threshold: Int, summary: inout JournalSummary) throws(JournalError) {
        let size = segment.data.count
        // Line 3 starts after the header and the first keyframe.
        let body: Int = segment.data.withUnsafeBytes { raw in
            let header = JournalLines.nextNewline(in: raw, from: 0)
            return header >= size ? size : JournalLines.nextNewline(in: raw, from: header + 1) + 1
        }
        var bounds = [body, size]
        if size - body > threshold {
            let middle = segment.data.withUnsafeBytes { JournalLines.nextNewline(in: $0, from: body + (size - body) / 2) + 1 }
            if middle < size { bounds = [body, middle, size] }
        }
        let partCount = bounds.count - 1
        let parts = PartResults(count: partCount)
        let limits = bounds
        DispatchQueue.concurrentPerform(iterations: partCount) { index in
            var tally = EnvelopeTally()
            let part = tally.scanPart(segment, range: limits[index]..<limits[index + 1], expected: index == 0 ? firstStep + 1 : nil)
            parts.set(index, (tally, part))
        }
        var expected = firstStep + 1
        for index in 0..<partCount {
            let (tally, part) = parts.get(index)
            if let failure = part.failure {
                throw Self.located(failure.error, line: segment.lineNumber(at: failure.offset))
            }
            if let first = part.firstExpected, first != expected {
                throw Self.located(Self.sequenceError(first, expected: expected, segment: segment), line: segment.lineNumber(at: part.firstOffset))
            }
            expected = part.finalExpected ?? expected
            merge(tally)
            summary.keyframes += part.keyframes
            if let offset = part.lastTransaction {
                lastTime = segment.data.withUnsafeBytes { raw in
                    let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let end = JournalLines.nextNewline(in: raw, from: offset)
                    let ids = UnsafeMutablePointer<Int>.allocate(capacity: Self.idCapacity)
                    defer { ids.deallocate() }
                    var count = 0
                    return Self.envelope(base, offset..<end, ids: ids, count: &count).map { Self.time(base, $0.time) }
                } ?? lastTime
            }
        }
        // The first keyframe was line 2.
        summary.keyframes += 1
    }

    /// Results of the parts of a parallel scan: one box per part, each written by its own
    /// thread (the list itself is never mutated, so no two threads touch the same memory).
    private final class PartResults: @unchecked Sendable {
        // Unchecked: each box is written by one thread, and read after all have finished.
        private final class Box {
            var result: (EnvelopeTally, Part)?
        }
        private let boxes: [Box]
        init(count: Int) { boxes = (0..<count).map { _ in Box() } }
        func set(_ index: Int, _ result: (EnvelopeTally, Part)) { boxes[index].result = result }
        func get(_ index: Int) -> (EnvelopeTally, Part) { boxes[index].result! }
    }

    /// What one part of a scan found besides the counts.
    struct Part {
        var keyframes = 0
        /// The `seq` the part's first transaction (or keyframe) implies, and its offset.
        var firstExpected: Int?
        var firstOffset = 0
        /// The next `seq` expected after the part.
        var finalExpected: Int?
        var lastTransaction: Int?
        var failure: (offset: Int, error: JournalError)?
    }

    /// Adds another tally's counts to this one (the other covers later lines).
    private mutating func merge(_ other: EnvelopeTally) {
        for (name, count) in zip(other.causeNames, other.causeCounts) {
            if let index = causeNames.firstIndex(of: name) {
                causeCounts[index] += count
            } else {
                causeNames.append(name)
                causeCounts.append(count)
            }
        }
        if other.writes.count > writes.count {
            writes += [Int](repeating: 0, count: other.writes.count - writes.count)
        }
        for (atom, count) in other.writes.enumerated() { writes[atom] += count }
        if firstTime == nil { firstTime = other.firstTime }
    }

    /// Scans the lines in `range`; `expected` is the first transaction's `seq` when known.
    private mutating func scanPart(_ segment: any JournalSegment, range: Range<Int>, expected start: Int?) -> Part {
        var part = Part()
        var expected = start
        // The last cause seen, as up to 16 bytes and a length, and its index: comparing two
        // words per line, with no array to retain.
        var causeKey: (UInt64, UInt64, Int) = (0, 0, -1)
        var causeIndex = 0
        let ids = UnsafeMutablePointer<Int>.allocate(capacity: Self.idCapacity)
        defer { ids.deallocate() }
        var idCount = 0
        // Write counts of atoms numbered below 65,536 (all but the largest journals' atoms).
        let fastWrites = UnsafeMutablePointer<Int>.allocate(capacity: 1 << 16)
        fastWrites.initialize(repeating: 0, count: 1 << 16)
        defer {
            for atom in 0..<(1 << 16) where fastWrites[atom] > 0 {
                countWrite(atom, times: fastWrites[atom])
            }
            fastWrites.deallocate()
        }
        func sequenceMet(_ seq: Int, keyframe: Bool, offset: Int) -> Bool {
            let implied = keyframe ? seq + 1 : seq
            guard let known = expected else {
                expected = implied
                part.firstExpected = implied
                part.firstOffset = offset
                return true
            }
            if keyframe { return seq == known - 1 }
            return seq == known
        }
        part.failure = segment.data.withUnsafeBytes { raw -> (offset: Int, error: JournalError)? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let size = range.upperBound
            var offset = range.lowerBound
            var released = offset
            while offset < size {
                if offset - released >= 8 << 20 {
                    // Read once: hand the pages back, so a scan holds 8 MB of the file, not all.
                    segment.data.releasePages(released..<offset)
                    released = offset
                }
                let found = memchr(base + offset, 0x0A, size - offset)
                let end = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? size
                let isTorn = found == nil && end == raw.count
                defer { offset = end + 1 }
                guard end > offset else {
                    return (offset, .malformedLine(path: segment.path, line: 0, reason: "empty line"))
                }
                let line = offset..<end
                if base[offset] == UInt8(ascii: "[") {
                    if isTorn && base[end - 1] != UInt8(ascii: "]") {
                        return nil  // a torn last line, which opening already warned about
                    }
                    guard let envelope = Self.envelope(base, line, ids: ids, count: &idCount) else {
                        // Written differently (spaces, keyed entries): read it in full.
                        do {
                            let transaction = try CompactTransactionLine(bytes: raw, range: line, version: segment.header.version)
                            guard sequenceMet(transaction.seq, keyframe: false, offset: offset) else {
                                return (offset, Self.sequenceError(transaction.seq, expected: expected!, segment: segment))
                            }
                            count(cause: transaction.cause, time: transaction.t, atoms: transaction.values.map(\.id))
                            expected = transaction.seq + 1
                            continue
                        } catch {
                            return (offset, SeekableSegment.error(error, path: segment.path, data: segment.data, line: line, number: 0))
                        }
                    }
                    guard sequenceMet(envelope.seq, keyframe: false, offset: offset) else {
                        return (offset, Self.sequenceError(envelope.seq, expected: expected!, segment: segment))
                    }
                    expected = envelope.seq + 1
                    if firstTime == nil {
                        firstTime = Self.time(base, envelope.time)
                    }
                    part.lastTransaction = offset
                    let key = Self.causeKey(base, envelope.cause)
                    if key.0 == causeKey.0, key.1 == causeKey.1, key.2 == causeKey.2 {
                        causeCounts[causeIndex] += 1
                    } else {
                        let cause = UnsafeBufferPointer(start: base + envelope.cause.lowerBound, count: envelope.cause.count)
                        countCause(Array(cause)[...])
                        causeIndex = causeNames.firstIndex { $0.utf8.elementsEqual(cause) } ?? 0
                        causeKey = key
                    }
                    for index in 0..<idCount {
                        let atom = ids[index]
                        if atom >= 0, atom < 1 << 16 {
                            fastWrites[atom] += 1
                        } else {
                            countWrite(atom)
                        }
                    }
                    continue
                }
                var kind = JournalLines.sniff(raw, line: line)
                if kind == nil {
                    if isTorn { return nil }
                    do {
                        kind = try SeekableSegment.kind(of: line, in: segment.data, verifyFully: false)
                    } catch {
                        return (offset, SeekableSegment.error(error, path: segment.path, data: segment.data, line: line, number: 0))
                    }
                }
                if case .keyframe(let seq)? = kind {
                    guard sequenceMet(seq, keyframe: true, offset: offset) else {
                        return (offset, .malformedLine(path: segment.path, line: 0, reason: "keyframe for step \(seq) follows transaction \(expected! - 1)"))
                    }
                    part.keyframes += 1
                }
            }
            return nil
        }
        part.finalExpected = expected
        return part
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
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    /// Whether a value starting with `byte` is a number, `true`, `false` or `null`.
    @inline(__always)
    private static func isScalarStart(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
    }

    /// The most value entries a line may have for the fast reader (more go to the general one).
    static let idCapacity = 1024

    /// A cause's bytes as two words and a length (causes longer than 16 bytes get length -2,
    /// so they never match and are compared in full).
    @inline(__always)
    static func causeKey(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> (UInt64, UInt64, Int) {
        guard range.count <= 16 else { return (0, 0, -2) }
        var words: (UInt64, UInt64) = (0, 0)
        _ = withUnsafeMutableBytes(of: &words) { memcpy($0.baseAddress!, base + range.lowerBound, range.count) }
        return (words.0, words.1, range.count)
    }

    /// The envelope of a transaction line; the atoms of its value entries go to `ids`
    /// (`count` of them, at most ``idCapacity``).
    @inline(__always)
    static func envelope(_ base: UnsafePointer<UInt8>, _ line: Range<Int>, ids: UnsafeMutablePointer<Int>, count: inout Int) -> Envelope? {
        count = 0
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
        guard let found = memchr(base + position, Int32(UInt8(ascii: ",")), end - position) else { return nil }
        position = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
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
        if position < end, base[position] == UInt8(ascii: "]") {
            return Envelope(seq: seq, time: time, cause: cause)
        }
        while position < end {
            // An entry: `[id,…]`; keyed entries (`{…}`) are left to the general reader.
            guard base[position] == UInt8(ascii: "["), position + 1 < end else { return nil }
            position += 1
            guard let id = integer(), count < idCapacity else { return nil }
            ids[count] = id
            count += 1
            // The common entries, `[id,"v",scalar]` and `[id,"="]`, without looking at each
            // byte's meaning: a number or literal holds no `]`.
            if position + 5 < end, base[position] == UInt8(ascii: ","), base[position + 1] == UInt8(ascii: "\""),
                base[position + 3] == UInt8(ascii: "\"")
            {
                let kind = base[position + 2]
                if kind == UInt8(ascii: "="), base[position + 4] == UInt8(ascii: "]") {
                    position += 5
                } else if kind == UInt8(ascii: "v"), base[position + 4] == UInt8(ascii: ","), isScalarStart(base[position + 5]),
                    let close = memchr(base + position + 5, Int32(UInt8(ascii: "]")), end - position - 5)
                {
                    position = UnsafePointer<UInt8>(close.assumingMemoryBound(to: UInt8.self)) - base + 1
                } else {
                    guard let after = skipToClose(base, from: position, end: end) else { return nil }
                    position = after
                }
            } else {
                guard let after = skipToClose(base, from: position, end: end) else { return nil }
                position = after
            }
            guard position < end else { return nil }
            if base[position] == UInt8(ascii: "]") {
                return Envelope(seq: seq, time: time, cause: cause)
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
