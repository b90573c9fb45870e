import Foundation
import Synchronization

/// A journal of format 4 or later, opened without reading it whole: its keyframes list every
/// atom and location declared before them, so reading can start at any keyframe.
///
/// Opening reads the header, the first keyframe's start and the last lines. A transaction is
/// found by binary search over byte offsets (lines are in `seq` order), its keyframe by walking
/// back line by line from it, and its locations from that keyframe and the `loc` lines after
/// it. Reading transactions in order continues from the last one read, so a scan of the whole
/// journal reads each line once.
///
/// Lines are checked as they are read (a skipped or repeated `seq` is an error then), not at
/// opening.
final class SeekableSegment: JournalSegment {
    let path: String
    let data: MappedFile
    let header: JournalHeader
    let warnings: [JournalWarning]
    let firstStep: Int
    let lastStep: Int
    let isEnded: Bool
    /// The offset of the first keyframe (line 2).
    private let firstKeyframe: Int
    /// The offset just past the last line read (a torn last line is left out).
    private let validEnd: Int
    private let cursor = Mutex(Cursor())

    /// Where sequential reading stands, and the locations known.
    private struct Cursor {
        /// The transaction after the last one read, and the offset its line starts at.
        var nextSeq = -1
        var nextOffset = 0
        /// Locations by number: every one declared before `coveredTo`, as read from the
        /// keyframe at `coveredFrom` and the lines after it. Numbers are never reused, so
        /// locations declared later do no harm.
        var locations: [Int: String] = [:]
        var coveredFrom = Int.max
        var coveredTo = Int.min
        /// Pages before this offset were handed back after reading in order.
        var releasedTo = 0
    }

    /// Bytes read in order between handing pages back to the kernel: a scan of the whole
    /// journal (`log`, `find`) holds this much of the file in memory, not all of it.
    private static let releaseWindow = 8 << 20

    /// Opens a segment whose header (ending at `headerEnd`) has been read.
    init(path: String, data: MappedFile, header: JournalHeader, headerEnd: Int) throws(JournalError) {
        self.path = path
        self.data = data
        self.header = header
        let count = data.count
        // Line 2: the first keyframe.
        let keyframeStart = headerEnd + 1
        let first: (step: Int, end: Int)? = data.withUnsafeBytes { raw in
            guard keyframeStart < count else { return nil }
            let end = JournalLines.nextNewline(in: raw, from: keyframeStart)
            guard end < count || data.last == 0x0A, case .keyframe(let seq)? = JournalLines.sniff(raw, line: keyframeStart..<end) else {
                return nil
            }
            return (seq, end)
        }
        guard let first else {
            throw .malformedLine(path: path, line: 2, reason: "no keyframe follows the header")
        }
        guard JournalFormat.stepRange.contains(first.step) else {
            throw .malformedLine(path: path, line: 2, reason: "step \(first.step) is out of range (steps are 0…\(JournalFormat.stepRange.upperBound))")
        }
        firstKeyframe = keyframeStart
        firstStep = first.step

        // The last line: a line cut short by a crash is left out with a warning.
        var warnings: [JournalWarning] = []
        var validEnd = count
        if data.last != 0x0A {
            let start = data.withUnsafeBytes { JournalLines.previousLineStart(in: $0, before: count + 1) } ?? 0
            if start > first.end, (try? Self.kind(of: start..<count, in: data, verifyFully: true)) == nil {
                let line = data.withUnsafeBytes { JournalLines.lineNumber(in: $0, at: start) }
                warnings.append(JournalWarning(path: path, line: line, message: "the last line is incomplete (the recording stopped mid-write); it was ignored"))
                validEnd = start
            }
        }
        self.validEnd = validEnd
        self.warnings = warnings

        // The last step: from the last transaction, keyframe or end line.
        var lastStep = first.step
        var isEnded = false
        var endSeq: Int?
        var position = validEnd
        let lineNumber = { (offset: Int) in data.withUnsafeBytes { JournalLines.lineNumber(in: $0, at: offset) } }
        while let start = data.withUnsafeBytes({ JournalLines.previousLineStart(in: $0, before: position) }), start > first.end {
            let end = data.withUnsafeBytes { JournalLines.nextNewline(in: $0, from: start) }
            let kind: JournalLines.Kind
            do {
                // The last lines are checked whole: they are the ones a crash may have damaged.
                kind = try Self.kind(of: start..<end, in: data, verifyFully: true)
            } catch {
                throw Self.error(error, path: path, data: data, line: start..<end, number: lineNumber(start))
            }
            position = start
            switch kind {
            case .end(let seq):
                guard !isEnded, end >= validEnd - 1 else {
                    throw .malformedLine(path: path, line: lineNumber(start), reason: "a line follows the end of the journal")
                }
                isEnded = true
                endSeq = seq
                continue
            case .transaction(let seq), .keyframe(let seq):
                lastStep = seq
            case .location, .unknown:
                continue
            }
            break
        }
        if let endSeq, endSeq != lastStep {
            throw .malformedLine(path: path, line: lineNumber(position), reason: "the end line names step \(endSeq), but the last step is \(lastStep)")
        }
        guard JournalFormat.stepRange.contains(lastStep), lastStep >= firstStep else {
            throw .malformedLine(path: path, line: lineNumber(position), reason: "step \(lastStep) is out of range (steps are \(firstStep)…\(JournalFormat.stepRange.upperBound))")
        }
        self.lastStep = lastStep
        self.isEnded = isEnded
    }

    // MARK: Finding lines

    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String]) {
        try cursor.withLock { cursor throws(JournalError) in
            let offset: Int
            if cursor.nextSeq == seq {
                // Reading in order: the next line, with the location lines before it.
                offset = try scanForward(from: cursor.nextOffset, to: seq, locations: &cursor)
            } else {
                offset = try locate(seq)
                try cover(offset, cursor: &cursor)
            }
            cursor.nextSeq = seq + 1
            cursor.nextOffset = lineEnd(offset) + 1
            if offset - cursor.releasedTo >= Self.releaseWindow, cursor.releasedTo < offset {
                data.releasePages(cursor.releasedTo..<offset)
                cursor.releasedTo = offset
            }
            return (offset, cursor.locations)
        }
    }

    func keyframe(atOrBefore step: Int) throws(JournalError) -> (step: Int, offset: Int) {
        guard step > firstStep else {
            return (firstStep, firstKeyframe)
        }
        let transaction = try locate(step)
        // A keyframe right after the transaction holds its step.
        let next = lineEnd(transaction) + 1
        if next < validEnd, case .keyframe(let seq) = try kind(at: next), seq == step {
            return (step, next)
        }
        return try keyframe(before: transaction)
    }

    func lineNumber(at offset: Int) -> Int {
        data.withUnsafeBytes { JournalLines.lineNumber(in: $0, at: offset) }
    }

    func keyframeSteps() throws(JournalError) -> [Int] {
        var steps: [Int] = []
        var offset = firstKeyframe
        while offset < validEnd {
            if case .keyframe(let seq) = try kind(at: offset) {
                steps.append(seq)
            }
            offset = lineEnd(offset) + 1
        }
        return steps
    }

    /// The offset of transaction `seq`'s line: binary search over byte offsets down to a
    /// small range, then line by line.
    private func locate(_ seq: Int) throws(JournalError) -> Int {
        guard seq > firstStep, seq <= lastStep else {
            throw .stepOutOfRange(path: path, step: seq, first: firstStep + 1, last: lastStep)
        }
        var low = lineEnd(firstKeyframe) + 1
        var high = validEnd
        while high - low > 16 << 10 {
            let middle = low + (high - low) / 2
            // The first line starting after `middle`, then the first of those with a step.
            var probe = lineEnd(middle) + 1
            var found: (seq: Int, isKeyframe: Bool, end: Int)?
            probing: while probe < high {
                let end = lineEnd(probe)
                switch try kind(at: probe) {
                case .transaction(let step):
                    found = (step, false, end)
                    break probing
                case .keyframe(let step):
                    found = (step, true, end)
                    break probing
                case .end:
                    break probing
                case .location, .unknown:
                    probe = end + 1
                }
            }
            guard let found else {
                high = middle
                continue
            }
            if !found.isKeyframe && found.seq == seq {
                return probe
            }
            // A keyframe for step k comes after transaction k.
            if found.seq < seq {
                low = found.end + 1
            } else {
                high = middle
            }
        }
        var offset = low
        while offset < validEnd {
            if case .transaction(let step) = try kind(at: offset) {
                if step == seq { return offset }
                if step > seq {
                    throw .missingSequence(path: path, line: lineNumber(at: offset), expected: seq, found: step)
                }
            }
            offset = lineEnd(offset) + 1
        }
        throw .malformedLine(path: path, line: lineNumber(at: validEnd), reason: "transaction \(seq) is missing")
    }

    /// Reads lines from `offset` up to transaction `seq`, taking in location lines, checking
    /// that nothing is skipped; returns the transaction's offset.
    private func scanForward(from offset: Int, to seq: Int, locations cursor: inout Cursor) throws(JournalError) -> Int {
        var offset = offset
        while offset < validEnd {
            let kind = try kind(at: offset)
            switch kind {
            case .transaction(let step):
                guard step == seq else {
                    throw step < seq
                        ? .duplicateSequence(path: path, line: lineNumber(at: offset), seq: step)
                        : .missingSequence(path: path, line: lineNumber(at: offset), expected: seq, found: step)
                }
                cursor.coveredTo = max(cursor.coveredTo, offset)
                return offset
            case .keyframe(let step):
                guard step == seq - 1 else {
                    throw .malformedLine(path: path, line: lineNumber(at: offset), reason: "keyframe for step \(step) follows transaction \(seq - 1)")
                }
            case .location:
                try takeLocation(at: offset, into: &cursor.locations)
            case .end:
                throw .missingSequence(path: path, line: lineNumber(at: offset), expected: seq, found: seq - 1)
            case .unknown:
                break
            }
            offset = lineEnd(offset) + 1
        }
        throw .malformedLine(path: path, line: lineNumber(at: validEnd), reason: "transaction \(seq) is missing")
    }

    /// Makes sure the cursor knows every location declared before `offset`.
    private func cover(_ offset: Int, cursor: inout Cursor) throws(JournalError) {
        if cursor.coveredFrom <= offset, offset <= cursor.coveredTo {
            return
        }
        var start: Int
        if cursor.coveredFrom <= cursor.coveredTo, offset > cursor.coveredTo, offset - cursor.coveredTo <= 1 << 20 {
            // Close ahead: read on from where the cursor stands.
            start = cursor.coveredTo
        } else {
            let keyframe = try keyframe(before: offset)
            try takeKeyframeLocations(at: keyframe.offset, into: &cursor.locations)
            cursor.coveredFrom = keyframe.offset
            start = keyframe.offset
        }
        while start < offset {
            if case .location = try kind(at: start) {
                try takeLocation(at: start, into: &cursor.locations)
            }
            start = lineEnd(start) + 1
        }
        cursor.coveredTo = offset
    }

    /// The last keyframe before the line at `offset`, walking back line by line.
    private func keyframe(before offset: Int) throws(JournalError) -> (step: Int, offset: Int) {
        var position = offset
        while position > firstKeyframe,
            let start = data.withUnsafeBytes({ JournalLines.previousLineStart(in: $0, before: position) })
        {
            if case .keyframe(let step) = try kind(at: start) {
                return (step, start)
            }
            position = start
        }
        return (firstStep, firstKeyframe)
    }

    // MARK: Lines

    /// The offset of the newline ending the line at `offset`.
    private func lineEnd(_ offset: Int) -> Int {
        data.withUnsafeBytes { JournalLines.nextNewline(in: $0, from: offset) }
    }

    /// What the line at `offset` holds.
    private func kind(at offset: Int) throws(JournalError) -> JournalLines.Kind {
        let end = lineEnd(offset)
        do {
            return try Self.kind(of: offset..<end, in: data, verifyFully: false)
        } catch {
            throw Self.error(error, path: path, data: data, line: offset..<end, number: lineNumber(at: offset))
        }
    }

    /// What a line holds: from its prefix, or by decoding it when it was written differently
    /// (or when `verifyFully`).
    static func kind(of line: Range<Int>, in data: MappedFile, verifyFully: Bool) throws -> JournalLines.Kind {
        guard !line.isEmpty else {
            throw JSONScanner.SyntaxError(offset: line.lowerBound, message: "empty line")
        }
        if !verifyFully, let kind = data.withUnsafeBytes({ JournalLines.sniff($0, line: line) }) {
            return kind
        }
        return try data.withUnsafeBytes { raw throws -> JournalLines.Kind in
            if raw[line.lowerBound] == UInt8(ascii: "[") {
                let transaction = try CompactTransactionLine(bytes: raw, range: line, version: JournalFormat.majorVersion)
                return .transaction(seq: transaction.seq)
            }
            let bytes = Data(UnsafeRawBufferPointer(rebasing: raw[line]))
            let object = try JSONDecoder().decode(JournalLines.TypedObject.self, from: bytes)
            switch object.type {
            case "keyframe":
                if verifyFully {
                    _ = try KeyframeLine(bytes: raw, range: line, decoding: { _ in false })
                }
                return .keyframe(seq: try object.requiredStep())
            case "loc":
                _ = try JSONDecoder().decode(LocationRecord.self, from: bytes)
                return .location
            case "end":
                _ = try JSONDecoder().decode(EndRecord.self, from: bytes)
                return .end(seq: try object.requiredStep())
            default:
                // Later minor versions may add line types; readers skip them.
                return .unknown
            }
        }
    }

    private func takeLocation(at offset: Int, into locations: inout [Int: String]) throws(JournalError) {
        let end = lineEnd(offset)
        do {
            let location = try JSONDecoder().decode(LocationRecord.self, from: data.subdata(in: offset..<end))
            locations[location.id] = location.at
        } catch {
            throw Self.error(error, path: path, data: data, line: offset..<end, number: lineNumber(at: offset))
        }
    }

    /// Takes in the `locs` of the keyframe at `offset`, skipping its other members.
    private func takeKeyframeLocations(at offset: Int, into locations: inout [Int: String]) throws(JournalError) {
        let end = lineEnd(offset)
        do {
            let declared: [LocationDeclaration] = try data.withUnsafeBytes { raw throws -> [LocationDeclaration] in
                var scanner = JSONScanner(raw, range: offset..<end)
                var found: Range<Int>?
                try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
                    let range = try scanner.skipValue()
                    if key == "locs" { found = range }
                }
                guard let found else { return [] }
                return try JSONDecoder().decode([LocationDeclaration].self, from: Data(UnsafeRawBufferPointer(rebasing: raw[found])))
            }
            for location in declared {
                locations[location.id] = location.at
            }
        } catch {
            throw Self.error(error, path: path, data: data, line: offset..<end, number: lineNumber(at: offset))
        }
    }

    /// A malformed-line error for a line, saying whether it is not UTF-8.
    static func error(_ error: any Error, path: String, data: MappedFile, line: Range<Int>, number: Int) -> JournalError {
        if let error = error as? JournalError {
            return error
        }
        if String(validating: data.subdata(in: line), as: UTF8.self) == nil {
            return .notUTF8(path: path, line: number)
        }
        return .malformedLine(path: path, line: number, reason: JournalIndexer.describe(error))
    }
}
