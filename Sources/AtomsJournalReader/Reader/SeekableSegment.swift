#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A journal of format 4 or later, opened without reading it whole: its keyframes declare every
/// atom and location the lines after them use, so reading can start at any keyframe.
///
/// Opening reads the header, the first keyframe's start and the last lines. A transaction is
/// found by binary search over byte offsets (lines are in `seq` order), its keyframe by walking
/// back line by line from it, and its locations from that keyframe and the `loc` lines after
/// it. Reading transactions in order continues from the last one read, so a scan of the whole
/// journal reads each line once.
///
/// Lines are checked as they are read (a skipped or repeated `seq` is an error then), not at
/// opening. The last steps are found from the file's end, so reading the last transaction
/// also reads every line after it, as reading on in order would (``checkToEnd()``): a file
/// whose lines go on past the step its end names (a second journal pasted after a damaged
/// line) is then rejected at the line `stats`' scan names, by every command that reads it.
final class SeekableSegment: JournalSegment {
    let file: JournalFile
    let header: JournalHeader
    let warnings: [JournalWarning]
    let firstStep: Int
    let lastStep: Int
    let isEnded: Bool
    let recorderWaits: Int
    /// The offset of the first keyframe (line 2).
    private let firstKeyframe: Int
    /// The offset just past the last line read (a torn last line is left out).
    private let validEnd: Int
    private let cursor: Mutex<Cursor>
    let lines: LineSource
    var dataEnd: Int { validEnd }
    var locationsAnywhere: Set<Int>? { nil }

    /// Where sequential reading stands, and the locations known.
    private struct Cursor {
        var reader: LineReader
        /// Where reading in order stands: the check of the lines read so far, and the offset
        /// of the next line (`nil` before reading in order).
        var check = SequenceCheck()
        var nextOffset: Int?
        /// Locations by number: every one declared before `coveredTo`, as read from the
        /// keyframe at `coveredFrom` and the lines after it. A recorder never reuses a number,
        /// so locations declared later do no harm.
        var locations: [Int: String] = [:]
        var coveredFrom = Int.max
        var coveredTo = Int.min
        /// Whether `locations` holds a number declared again with other text (a damaged
        /// journal): a step before `coveredTo` then reads its locations again, so that it
        /// reads the declaration in force at its line, as reading in order does.
        var declaredAgain = false
        /// Whether the lines after the last transaction were read, and found right.
        var isCheckedToEnd = false

        /// Covers nothing: `locations` may no longer be those before `coveredTo` (a read of
        /// them is under way, or failed part way).
        mutating func forgetCoverage() {
            (coveredFrom, coveredTo) = (.max, .min)
        }

        /// Takes in a location line's declaration.
        mutating func take(_ location: LocationRecord) {
            if let known = locations.updateValue(location.at, forKey: location.id), known != location.at {
                declaredAgain = true
            }
        }

        /// Replaces the locations with those a keyframe lists.
        mutating func takeKeyframeLocations(_ declared: [LocationDeclaration]) {
            locations = Dictionary(declared.map { ($0.id, $0.at) }, uniquingKeysWith: { $1 })
            declaredAgain = false
        }

        /// Reads lines in order as ``readLines(_:from:to:scanner:_:)`` does, `body` given the
        /// cursor itself: its reader is lent to the read meanwhile (taken out, not copied, so
        /// that its buffer is not copied on the read's first write).
        mutating func readLines(
            from offset: Int, to end: Int, scanner: LineScanner,
            _ body: (LineScanner, UnsafeRawBufferPointer, LineReader.Line, inout Cursor) throws -> LineReader.Reading
        ) throws(JournalError) {
            var lent = LineReader(file: reader.file)
            swap(&lent, &reader)
            defer { swap(&lent, &reader) }
            try AtomsJournalReader.readLines(&lent, from: offset, to: end, scanner: scanner) { scanner, raw, line in
                try body(scanner, raw, line, &self)
            }
        }
    }

    /// Opens a segment whose header (ending just before `headerEnd`) has been read.
    init(file: JournalFile, header: JournalHeader, headerEnd: Int) throws(JournalError) {
        self.file = file
        self.header = header
        let path = file.path
        let scanner = LineScanner(version: header.version)
        var reader = LineReader(file: file)
        let count = file.count
        // Line 2: the first keyframe.
        let keyframeStart = headerEnd
        var first: (step: Int, next: Int)?
        if keyframeStart < count {
            // Checked whole, as every reader would read it: a damaged first keyframe is found
            // at opening, by every command alike.
            let kind = try readLine(&reader, at: keyframeStart, scanner: scanner) { scanner, raw, range in
                try scanner.kind(of: range, in: raw, verify: true)
            }
            if case .keyframe(let seq) = kind {
                first = (seq, try reader.line(at: keyframeStart).next)
            }
        }
        guard let first else {
            throw .malformedLine(path: path, line: 2, reason: "no keyframe follows the header")
        }
        firstKeyframe = keyframeStart
        firstStep = first.step

        // The last line: a line cut short by a crash is left out with a warning.
        var warnings: [JournalWarning] = []
        var validEnd = count
        if let start = try reader.previousLineStart(before: count + 1), start < count, start >= first.next {
            let line = try reader.line(at: start)
            if !line.isTerminated, reader.withBuffer({ (try? scanner.kind(of: line.range, in: $0, verify: true)) == nil }) {
                warnings.append(JournalWarning(path: path, line: file.lineNumber(at: start), message: ScannedSegment.tornLastLine))
                validEnd = start
            }
        }
        self.validEnd = validEnd
        self.warnings = warnings

        // The last step: from the last transaction, keyframe or end line, checked whole
        // (they are the lines a crash may have damaged).
        var lastStep = first.step
        var endSeq: Int?
        var waits = 0
        var position = validEnd
        while let start = try reader.previousLineStart(before: position), start >= first.next {
            let kind = try readLine(&reader, at: start, scanner: scanner) { scanner, raw, range in
                try scanner.kind(of: range, in: raw, verify: true)
            }
            position = start
            if case .end(let seq) = kind {
                guard endSeq == nil, try reader.line(at: start).next >= validEnd else {
                    throw SequenceCheck.Violation.afterEnd.error(path: path, line: file.lineNumber(at: start))
                }
                endSeq = seq
                // What the line says beyond its step is for `stats`: an end line that says
                // it otherwise than a recorder writes is read as one without waits.
                waits = try readLine(&reader, at: start, scanner: scanner) { scanner, raw, range in
                    (try? scanner.end(in: raw, range))?.waits ?? 0
                }
                continue
            }
            guard let step = kind.step else { continue }
            lastStep = step
            break
        }
        if let endSeq, endSeq != lastStep {
            throw SequenceCheck.Violation.endMismatch(named: endSeq, last: lastStep).error(path: path, line: file.lineNumber(at: position))
        }
        guard lastStep >= firstStep else {
            throw .malformedLine(path: path, line: file.lineNumber(at: position), reason: "step \(lastStep) is out of range (steps are \(firstStep)…\(JournalFormat.stepRange.upperBound))")
        }
        self.lastStep = lastStep
        isEnded = endSeq != nil
        recorderWaits = waits
        cursor = Mutex(Cursor(reader: reader))
        lines = LineSource(file: file, scanner: scanner)
        if lastStep == firstStep {
            // No transaction to read: the lines after the first keyframe are read now, as
            // reading the last transaction reads those after it.
            try cursor.withLock { cursor throws(JournalError) in
                try takeKeyframeLocations(at: keyframeStart, cursor: &cursor)
                try readOn(from: first.next, after: firstStep, cursor: &cursor)
            }
        }
    }

    // MARK: Finding lines

    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String]) {
        try cursor.withLock { cursor throws(JournalError) in
            (try findTransaction(seq, cursor: &cursor), cursor.locations)
        }
    }

    func transaction(_ seq: Int, decoding: (Int) -> Bool, applying: (TransactionRecord) throws(JournalState.StateError) -> Void) throws(JournalError) -> (record: TransactionRecord, lineLength: Int) {
        // Found and read under one lock, from the buffer that found it.
        let scanner = self.scanner
        nonisolated(unsafe) var result: (record: TransactionRecord, lineLength: Int)?
        try cursor.withLock { cursor throws(JournalError) in
            let offset = try findTransaction(seq, cursor: &cursor)
            let locations = cursor.locations
            result = try readLine(&cursor.reader, at: offset, scanner: scanner) { scanner, raw, range in
                (try scanner.transaction(in: raw, range, locations: locations, decoding: decoding), range.count)
            }
            do throws(JournalState.StateError) {
                try applying(result!.record)
            } catch {
                throw .malformedLine(path: path, line: file.lineNumber(at: offset), reason: error.message)
            }
            if seq == lastStep {
                try readOn(after: offset, cursor: &cursor)
            }
        }
        return result!
    }

    /// The offset of transaction `seq`'s line: the next line when reading in order,
    /// otherwise found by ``locate(_:reader:)``; the cursor then stands after it.
    ///
    /// When it fails, the cursor stands nowhere and covers nothing, so that the next read
    /// finds what a reader that read nothing before would (a failure part way leaves the
    /// locations and the order check of neither the line before nor the line after).
    private func findTransaction(_ seq: Int, cursor: inout Cursor) throws(JournalError) -> Int {
        do throws(JournalError) {
            let offset = try placeTransaction(seq, cursor: &cursor)
            cursor.nextOffset = try cursor.reader.line(at: offset).next
            return offset
        } catch {
            cursor.nextOffset = nil
            cursor.forgetCoverage()
            throw error
        }
    }

    private func placeTransaction(_ seq: Int, cursor: inout Cursor) throws(JournalError) -> Int {
        if let next = cursor.nextOffset, cursor.check.expected == seq {
            // Reading in order: the next line, with the location lines before it.
            return try scanForward(from: next, to: seq, cursor: &cursor)
        } else if seq == firstStep + 1 {
            // The first transaction: read in order from the first keyframe, so that reading
            // every transaction in order reads every line, as `stats`' scan does.
            cursor.forgetCoverage()
            try takeKeyframeLocations(at: firstKeyframe, cursor: &cursor)
            cursor.check = SequenceCheck(after: firstStep)
            let offset = try scanForward(from: try cursor.reader.line(at: firstKeyframe).next, to: seq, cursor: &cursor)
            (cursor.coveredFrom, cursor.coveredTo) = (firstKeyframe, offset)
            return offset
        } else {
            let offset = try locate(seq, reader: &cursor.reader)
            try cover(offset, cursor: &cursor)
            cursor.check = SequenceCheck(after: seq)
            return offset
        }
    }

    func checkToEnd() throws(JournalError) {
        guard lastStep > firstStep else { return }
        try cursor.withLock { cursor throws(JournalError) in
            guard !cursor.isCheckedToEnd else { return }
            let offset = try findTransaction(lastStep, cursor: &cursor)
            let locations = cursor.locations
            // The last transaction's own line first, as reading in order reads it.
            _ = try readLine(&cursor.reader, at: offset, scanner: scanner) { scanner, raw, range in
                try scanner.transaction(in: raw, range, locations: locations, decoding: { _ in false })
            }
            try readOn(after: offset, cursor: &cursor)
        }
    }

    /// After the last transaction (at `offset`) was read: reads the lines after it, once.
    private func readOn(after offset: Int, cursor: inout Cursor) throws(JournalError) {
        guard !cursor.isCheckedToEnd else { return }
        // The cursor knows every location declared up to the transaction.
        try readOn(from: try cursor.reader.line(at: offset).next, after: lastStep, cursor: &cursor)
    }

    /// Reads the lines from `offset` to the end of the file as reading in order reads them
    /// after step `step`: each line's place in the sequence, each location line, and each
    /// transaction's envelope (with its location, its graph changes, its values' syntax).
    private func readOn(from offset: Int, after step: Int, cursor: inout Cursor) throws(JournalError) {
        let scan = StepScan(segment: self, offset: offset, locations: cursor.locations, check: SequenceCheck(after: step))
        try scan.readToEnd()
        if cursor.locations.contains(where: { scan.locations[$0.key] != $0.value }) {
            // Declared again after the last transaction: no step is covered now.
            cursor.forgetCoverage()
        }
        cursor.locations = scan.locations
        cursor.isCheckedToEnd = true
    }

    func keyframe(atOrBefore step: Int) throws(JournalError) -> (step: Int, offset: Int) {
        guard step > firstStep else {
            return (firstStep, firstKeyframe)
        }
        return try cursor.withLock { cursor throws(JournalError) in
            let transaction = try locate(step, reader: &cursor.reader)
            // A keyframe right after the transaction holds its step.
            let next = try cursor.reader.line(at: transaction).next
            if next < validEnd, case .keyframe(let seq) = try kind(at: next, reader: &cursor.reader), seq == step {
                return (step, next)
            }
            return try keyframe(before: transaction, reader: &cursor.reader)
        }
    }

    func keyframeSteps() throws(JournalError) -> [Int] {
        var reader = LineReader(file: file)
        var steps: [Int] = []
        try readLines(&reader, from: firstKeyframe, to: validEnd, scanner: scanner) { scanner, raw, line in
            if case .keyframe(let seq) = try scanner.kind(of: line.range, in: raw) {
                steps.append(seq)
            }
            return .next
        }
        return steps
    }

    /// The offset of transaction `seq`'s line: binary search over byte offsets down to a
    /// small range, then line by line.
    private func locate(_ seq: Int, reader: inout LineReader) throws(JournalError) -> Int {
        guard seq > firstStep, seq <= lastStep else {
            throw .stepOutOfRange(path: path, step: seq, first: firstStep + 1, last: lastStep)
        }
        var low = try reader.line(at: firstKeyframe).next
        var high = validEnd
        while high - low > 16 << 10 {
            let middle = low + (high - low) / 2
            // The first line starting after `middle`, then the first of those with a step.
            var probe = try reader.line(at: middle).next
            var found: (seq: Int, isKeyframe: Bool, next: Int)?
            probing: while probe < high {
                let next = try reader.line(at: probe).next
                switch try kind(at: probe, reader: &reader) {
                case .transaction(let step):
                    found = (step, false, next)
                    break probing
                case .keyframe(let step):
                    found = (step, true, next)
                    break probing
                case .end:
                    break probing
                case .location, .timing, .unknown:
                    probe = next
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
                low = found.next
            } else {
                high = middle
            }
        }
        // Line by line, checking the sequence from the line before, so that a repeated or
        // skipped step is named at the line reading in order names.
        var offset = low
        if let before = try reader.previousLineStart(before: low), before > firstKeyframe {
            offset = before
        }
        var check = SequenceCheck(startsAnywhere: true)
        var found: Int?
        try readLines(&reader, from: offset, to: validEnd, scanner: scanner) { scanner, raw, line in
            let kind = try scanner.kind(of: line.range, in: raw)
            do throws(SequenceCheck.Violation) {
                try check.take(kind)
            } catch {
                throw error.error(path: path, line: lineNumber(at: line.offset))
            }
            if case .transaction(let step) = kind {
                if step == seq {
                    found = line.offset
                    return .stopBefore
                }
                if step > seq {
                    throw JournalError.missingSequence(path: path, line: lineNumber(at: line.offset), expected: seq, found: step)
                }
            }
            return .next
        }
        guard let found else {
            throw .malformedLine(path: path, line: lineNumber(at: validEnd), reason: "transaction \(seq) is missing")
        }
        return found
    }

    /// Reads lines from `offset` up to transaction `seq`, taking in location lines and
    /// checking the sequence; returns the transaction's offset.
    private func scanForward(from offset: Int, to seq: Int, cursor: inout Cursor) throws(JournalError) -> Int {
        var found: Int?
        try cursor.readLines(from: offset, to: validEnd, scanner: scanner) { scanner, raw, line, cursor in
            let kind = try scanner.kind(of: line.range, in: raw)
            do throws(SequenceCheck.Violation) {
                try cursor.check.take(kind)
            } catch {
                throw error.error(path: path, line: lineNumber(at: line.offset))
            }
            switch kind {
            case .transaction:
                cursor.coveredTo = max(cursor.coveredTo, line.offset)
                found = line.offset
                return .stopBefore
            case .location:
                cursor.take(try scanner.location(in: raw, line.range))
            case .end, .keyframe, .timing, .unknown:
                // After an end line, the next line (if any) breaks the sequence there.
                break
            }
            return .next
        }
        guard let found else {
            throw .malformedLine(path: path, line: lineNumber(at: validEnd), reason: "transaction \(seq) is missing")
        }
        return found
    }

    /// Makes sure the cursor knows every location declared before `offset`.
    private func cover(_ offset: Int, cursor: inout Cursor) throws(JournalError) {
        if cursor.coveredFrom <= offset, offset <= cursor.coveredTo, offset == cursor.coveredTo || !cursor.declaredAgain {
            return
        }
        if cursor.coveredFrom <= cursor.coveredTo, offset > cursor.coveredTo, offset - cursor.coveredTo <= 1 << 20 {
            // Close ahead: read on from where the cursor stands. A reader that read nothing
            // before starts at the keyframe before `offset` and takes the locations it lists,
            // so a keyframe on the way replaces those the cursor knew; and a damaged line
            // before it is one that keyframe spares it: the locations are then read from that
            // keyframe. What a read finds does not depend on what was read before it.
            do {
                try takeLocations(from: cursor.coveredTo, to: offset, cursor: &cursor, adoptingKeyframes: true)
                cursor.coveredTo = offset
                return
            } catch {}
        }
        cursor.forgetCoverage()
        let keyframe = try keyframe(before: offset, reader: &cursor.reader)
        try takeKeyframeLocations(at: keyframe.offset, cursor: &cursor)
        try takeLocations(from: keyframe.offset, to: offset, cursor: &cursor)
        (cursor.coveredFrom, cursor.coveredTo) = (keyframe.offset, offset)
    }

    /// Replaces the cursor's locations with those the keyframe at `offset` lists: what a
    /// reader that starts there knows, none of the locations the cursor took in elsewhere.
    private func takeKeyframeLocations(at offset: Int, cursor: inout Cursor) throws(JournalError) {
        let declared = try readLine(&cursor.reader, at: offset, scanner: scanner) { _, raw, range in
            try KeyframeLine.locations(in: raw, range)
        }
        cursor.takeKeyframeLocations(declared)
    }

    /// Takes in the location lines from `start` up to `offset`; with `adoptingKeyframes`, a
    /// keyframe on the way replaces the locations with those it lists (the cursor then covers
    /// from it).
    private func takeLocations(from start: Int, to offset: Int, cursor: inout Cursor, adoptingKeyframes: Bool = false) throws(JournalError) {
        try cursor.readLines(from: start, to: offset, scanner: scanner) { scanner, raw, line, cursor in
            switch try scanner.kind(of: line.range, in: raw) {
            case .location:
                cursor.take(try scanner.location(in: raw, line.range))
            case .keyframe where adoptingKeyframes:
                cursor.forgetCoverage()
                cursor.takeKeyframeLocations(try KeyframeLine.locations(in: raw, line.range))
                (cursor.coveredFrom, cursor.coveredTo) = (line.offset, line.offset)
            default:
                break
            }
            return .next
        }
    }

    /// The last keyframe before the line at `offset`, walking back line by line.
    private func keyframe(before offset: Int, reader: inout LineReader) throws(JournalError) -> (step: Int, offset: Int) {
        var position = offset
        while position > firstKeyframe, let start = try reader.previousLineStart(before: position) {
            if case .keyframe(let step) = try kind(at: start, reader: &reader) {
                return (step, start)
            }
            position = start
        }
        return (firstStep, firstKeyframe)
    }

    // MARK: Lines

    /// What the line at `offset` holds.
    private func kind(at offset: Int, reader: inout LineReader) throws(JournalError) -> LineKind {
        try readLine(&reader, at: offset, scanner: scanner) { scanner, raw, range in
            try scanner.kind(of: range, in: raw)
        }
    }

}
