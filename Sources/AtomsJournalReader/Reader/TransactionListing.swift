#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One transaction as a listing reads it: its envelope's bytes where the line is in the
/// common shape (``TransactionEnvelope``), else the record ``JournalReader/transaction(_:decodingValuesOf:)``
/// reads with no value decoded.
package enum ListedTransaction {
    /// A line in the common shape, seen in place: valid only during the call it is handed to.
    case envelope(ListedEnvelope)
    /// Any other line, read in full (values left undecoded).
    case record(TransactionRecord)
}

/// The envelope of a transaction line in the common shape, as bytes of the read buffer: a
/// `log` line is formatted from it without building a record.
///
/// Its buffers are valid only during the call it is handed to. A line in this shape has no
/// graph change: nothing created or released, no declaration.
package struct ListedEnvelope {
    /// The step.
    package let seq: Int
    /// The time's text (milliseconds since recording started), a plain JSON number.
    package let time: UnsafeRawBufferPointer
    /// The cause's bytes: ASCII without quotes, escapes or control characters.
    package let cause: UnsafeRawBufferPointer
    /// The atom that started it (0 for none).
    package let origin: Int
    /// The number of the line's write site (0 for none).
    package let locationID: Int
    /// The text of its write site (`nil` for none).
    package let location: String?
    /// The atoms whose values it writes, in the line's order.
    package let atoms: UnsafeBufferPointer<Int>
    /// Where each of `atoms`' values is in the line: an empty range for `[id,"="]`.
    let values: UnsafeBufferPointer<Range<Int>>

    /// Whether the entry of `atoms[index]` writes a value equal to the one before: the atom
    /// was written, not changed (``TransactionRecord/changed(_:)``).
    package func isEqualWrite(at index: Int) -> Bool {
        values[index].isEmpty
    }
}

extension JournalReader {
    /// Calls `body` with transactions `first…last` in order, each as its envelope's bytes when
    /// its line is in the common shape, else as a record without values: the reading behind
    /// `log`.
    ///
    /// Lines are read in order through one buffer, and checked as
    /// ``transaction(_:decodingValuesOf:)`` checks them (their place in the sequence, the
    /// envelope by ``JSONScanner``'s rules, the write site declared); anything unusual (a
    /// sequence break, a line missing, a damaged line) is left to that function, so every
    /// error reads as before.
    ///
    /// Each transaction's atoms are checked as applying it to the state before it checks them
    /// (``JournalState/apply(_:decoding:)``): an atom no line declared is damage.
    ///
    /// - Parameters:
    ///   - declared: The atoms declared before `first` (the state's at `first - 1`); `nil`
    ///     when `first` is the first transaction, whose keyframe declares them. A listing that
    ///     starts later without them checks no atom.
    ///   - body: Returns `false` to stop.
    /// - Complexity: One pass over the lines of the steps listed; no allocation per line in
    ///   the common shape.
    /// - Throws: ``JournalError`` as ``transaction(_:decodingValuesOf:)``, or as
    ///   ``apply(_:to:decodingValuesOf:)`` for an atom that is not declared.
    package func forEachTransaction(from first: Int, through last: Int, declared: [Int]? = nil, _ body: (ListedTransaction) -> Bool) throws(JournalError) {
        try list(from: first, through: last, declared: declared, timings: nil, body, timing: { _ in false })
    }

    /// ``forEachTransaction(from:through:declared:_:)`` with the journal's timing lines read
    /// in the same pass: `profile`'s reading, one walk where it was two.
    ///
    /// A timing line counts from the lines before it in its segment (the shapes of the lines
    /// before it, its transaction's start), so the listing starts at the first transaction of
    /// the segment holding `first`; `body` is called from `first` on. `timing` is called with
    /// each timing line as the file has them (a transaction's comes after those of the
    /// transactions its subscribers started), from the segment's start, and after `last` while
    /// it returns `true`: a transaction's timing line may come after later transactions.
    ///
    /// - Throws: ``JournalError`` as ``forEachTransaction(from:through:declared:_:)``, or for a
    ///   malformed timing line, naming the first damaged line the pass reads.
    package func forEachTimedTransaction(from first: Int, through last: Int, _ body: (ListedTransaction) -> Bool, timing: (TimingLine) -> Bool) throws(JournalError) {
        let start = max(first, firstStep + 1)
        let segmentStart = (allSegments.last { $0.firstStep < start }?.firstStep).map { $0 + 1 } ?? start
        let timings = ListingTimings(header)
        try list(from: segmentStart, through: last, declared: nil, timings: timings, { listed in
            guard listed.seq >= start else { return true }
            // Its timing line is wanted, even after the last step listed.
            timings.wantsMore = true
            return body(listed)
        }, timing: timing)
        // A timing line in a later segment (a bounded journal began one between a transaction
        // and its timing line).
        guard timings.wantsMore, let reached = allSegments.last(where: { $0.firstStep < last }) else { return }
        for segment in allSegments where segment.firstStep > reached.firstStep && timings.wantsMore {
            try forEachTimingLine(in: segment, from: 0, context: &timings.context) { line in
                timings.wantsMore = timing(line)
                return timings.wantsMore
            }
        }
    }

    /// The listing behind both: `timings` reads timing lines too when given.
    private func list(from first: Int, through last: Int, declared: [Int]?, timings: ListingTimings?, _ body: (ListedTransaction) -> Bool, timing: (TimingLine) -> Bool) throws(JournalError) {
        try checkingForChanges { () throws(JournalError) in
            var seq = max(first, firstStep + 1)
            var declaredAtoms = declared.map { DeclaredAtoms($0) }
            while seq <= last {
                guard let segment = allSegments.last(where: { $0.firstStep < seq }), seq <= segment.lastStep else {
                    // Worded by the reader.
                    guard body(.record(try readerRecord(seq, timings: timings))) else { return }
                    seq += 1
                    continue
                }
                var walk = ListingPass(segment: segment, through: min(last, segment.lastStep), declared: declaredAtoms, timings: timings)
                let next = try walk.run(from: seq, body, timing: timing)
                declaredAtoms = walk.declared
                guard let next else { return }
                if next == seq {
                    // The pass stopped at a line it leaves to the reader.
                    guard body(.record(try readerRecord(seq, timings: timings))) else { return }
                    seq += 1
                } else {
                    seq = next
                }
            }
        }
    }
}

extension JournalReader {
    /// Transaction `seq` read by the reader, which words what is wrong with it; noted as a
    /// transaction timing lines count from when `timings` are read.
    fileprivate func readerRecord(_ seq: Int, timings: ListingTimings?) throws(JournalError) -> TransactionRecord {
        let record = try transaction(seq, decodingValuesOf: [])
        if let timings, timings.context.compact {
            timings.context.noteTransaction(seq: record.seq, start: TimingContext.nanoseconds(ofMilliseconds: record.t), origin: record.origin ?? 0)
        }
        return record
    }
}

extension ListedTransaction {
    /// The transaction's step.
    var seq: Int {
        switch self {
        case .envelope(let envelope): envelope.seq
        case .record(let record): record.seq
        }
    }
}

/// What a listing that reads timing lines too keeps across its passes: the context timing
/// lines count from, and whether its reader wants more of them.
private final class ListingTimings {
    // Unchecked exclusivity: touched by the listing's thread, one access at a time, on every
    // line.
    @exclusivity(unchecked) var context: TimingContext
    @exclusivity(unchecked) var wantsMore = true

    init(_ header: JournalHeader) {
        context = TimingContext(header)
    }
}

/// One pass of ``JournalReader/forEachTransaction(from:through:_:)`` over one segment's lines.
private struct ListingPass {
    let segment: any JournalSegment
    let through: Int
    /// The atoms declared so far (`nil`: not known, none checked).
    var declared: DeclaredAtoms?
    /// The timing lines' reading, when the pass reads them too.
    let timings: ListingTimings?

    /// Lists transactions from `start` on; returns the next step to list (`start` itself when
    /// its line is left to the reader), `nil` when `body` asked to stop.
    mutating func run(from start: Int, _ body: (ListedTransaction) -> Bool, timing: (TimingLine) -> Bool) throws(JournalError) -> Int? {
        let segment = self.segment
        var (offset, locations) = try segment.transactionLine(start)
        var check = SequenceCheck(after: start - 1)
        // The atoms declared so far: each line's atoms are checked as applying it checks them.
        var declaredAtoms = declared
        if start == segment.firstStep + 1 {
            // The first transaction: read in order from the first keyframe, as the reader
            // reads it, so that every line before it is read.
            let keyframe = try segment.keyframe(atOrBefore: segment.firstStep).offset
            // (Those before it, from an earlier segment, still count, as applying counts them;
            // none are checked when no state reads from the keyframe.)
            let numbered = segment.locationsAnywhere == nil
            let (keyframeAtoms, declared) = try segment.lines.read(lineAt: keyframe) { _, raw, range in
                try KeyframeLine.declarations(in: raw, range, withLocations: numbered)
            }
            if let keyframeAtoms {
                if declaredAtoms == nil { declaredAtoms = DeclaredAtoms() }
                for atom in keyframeAtoms { declaredAtoms?.insert(atom) }
            } else {
                declaredAtoms = nil
            }
            if let timings {
                // A segment's lines name the shapes of its own timing lines, as its writer did.
                timings.context.beginSegment()
                if numbered, timings.context.packed { timings.context.noteLocations(declared) }
            }
            if numbered {
                locations = [:]
                for location in declared { locations[location.id] = location.at }
                var reader = LineReader(file: segment.file)
                offset = try reader.line(at: keyframe).next
                check = SequenceCheck(after: segment.firstStep)
            }
        }
        // Behind a reference the loop's closure captures: a captured variable would cost a
        // retain or a dynamic exclusivity check on every line.
        let atoms = ListedAtoms(declaredAtoms)
        let scan = StepScan(segment: segment, offset: offset, locations: locations, check: check)
        let scanner = scan.scanner
        let (ids, values, through, timings) = (scan.atoms, scan.valueRanges, self.through, self.timings)
        // The loop's own state, behind a reference too.
        let progress = ListingProgress(seq: start)
        // A segment's last transaction is read with every line after it, as reading on in
        // order reads it: a damaged line there fails it before it is handed over.
        func checkLast(_ line: LineReader.Line) throws(JournalError) {
            if progress.seq == segment.lastStep { try Self.readOn(segment, from: line.next, locations: scan.locations) }
        }
        func undeclared(_ atom: Int, at offset: Int) -> JournalError {
            .malformedLine(path: segment.path, line: segment.lineNumber(at: offset), reason: DeclaredAtoms.undeclaredMessage(atom))
        }
        // A timing line read, handed to the reader of timings.
        func hand(_ line: TimingLine?) {
            if let line, let timings { timings.wantsMore = timing(line) }
        }
        // Ends when the listing has its last step, or `body` stops it.
        while scan.offset < scan.dataEnd, !progress.done {
            try scan.run { listedLine, raw, line throws(JournalError) -> StepScan.Verdict in
                guard progress.seq <= through else {
                    // After the last step listed, timing lines of the steps listed may still
                    // come (after the transactions their subscribers started): the lines are
                    // read as the readers of timing read them, while they are wanted.
                    guard let timings, timings.wantsMore else {
                        progress.done = true
                        return .stopBefore
                    }
                    guard let kind = listedLine.kind else { return .readInFull }
                    do {
                        hand(try timings.context.take(kind, raw, line.range, scanner: scanner))
                    } catch {
                        throw scan.damaged(error, raw, line)
                    }
                    if !timings.wantsMore { progress.done = true }
                    return timings.wantsMore ? .next : .stopAfter
                }
                let kind: LineKind
                switch listedLine {
                case .packedTiming:
                    if let timings {
                        do {
                            // A string line in a journal older than 4.3 is read as its
                            // readers of timing read it: not a packed line.
                            hand(timings.context.packed
                                ? try timings.context.timing(ofPacked: raw, line.range)
                                : try timings.context.take(.timing, raw, line.range, scanner: scanner))
                        } catch {
                            throw scan.damaged(error, raw, line)
                        }
                    }
                    return .next
                case .envelope(let envelope, let count):
                    guard envelope.seq == progress.seq else { return .readInFull }
                    if envelope.at != progress.lastLocation.id {
                        progress.lastLocation = (envelope.at, scan.locations[envelope.at])
                    }
                    // A write site never declared is worded by the general reader.
                    guard envelope.at == 0 || progress.lastLocation.text != nil else { return .readInFull }
                    try scan.take(.transaction(seq: progress.seq), at: line.offset)
                    if atoms.isChecking {
                        for index in 0..<count where !atoms.declared.contains(ids[index]) {
                            throw undeclared(ids[index], at: line.offset)
                        }
                    }
                    if let timings, timings.context.compact {
                        let start = TimingContext.nanoseconds(ofMilliseconds: UnsafeRawBufferPointer(rebasing: raw[envelope.time]))
                        timings.context.noteTransaction(seq: progress.seq, start: start, origin: envelope.origin)
                    }
                    let base = raw.baseAddress!
                    let listed = ListedEnvelope(
                        seq: progress.seq,
                        time: UnsafeRawBufferPointer(start: base + envelope.time.lowerBound, count: envelope.time.count),
                        cause: UnsafeRawBufferPointer(start: base + envelope.cause.lowerBound, count: envelope.cause.count),
                        origin: envelope.origin, locationID: envelope.at, location: progress.lastLocation.text,
                        atoms: UnsafeBufferPointer(start: ids, count: count),
                        values: UnsafeBufferPointer(start: values, count: count)
                    )
                    try checkLast(line)
                    guard body(.envelope(listed)) else {
                        (progress.stopped, progress.done) = (true, true)
                        return .stopAfter
                    }
                    progress.seq += 1
                    return progress.isPastLast(through, timings) ? .stopAfter : .next
                case .other(let other):
                    kind = other
                }
                // Its place first, as reading in order takes it: a step out of sequence is
                // named here.
                try scan.take(kind, at: line.offset)
                switch kind {
                case .transaction:
                    let record: TransactionRecord
                    do {
                        record = try scanner.transaction(in: raw, line.range, locations: scan.locations, decoding: { _ in false })
                    } catch {
                        throw scan.damaged(error, raw, line)
                    }
                    if atoms.isChecking, let atom = atoms.declared.take(record) {
                        throw undeclared(atom, at: line.offset)
                    }
                    if let timings, timings.context.compact {
                        timings.context.noteTransaction(seq: record.seq, start: TimingContext.nanoseconds(ofMilliseconds: record.t), origin: record.origin ?? 0)
                    }
                    try checkLast(line)
                    guard body(.record(record)) else {
                        (progress.stopped, progress.done) = (true, true)
                        return .stopAfter
                    }
                    progress.seq += 1
                    if progress.isPastLast(through, timings) { return .stopAfter }
                case .location:
                    let location = try scan.location(in: raw, line)
                    if location.id == progress.lastLocation.id { progress.lastLocation = (0, nil) }
                    if let timings, timings.context.packed { timings.context.noteLocation(location) }
                case .timing:
                    if let timings {
                        do {
                            hand(try timings.context.timing(ofObject: raw, line.range))
                        } catch {
                            throw scan.damaged(error, raw, line)
                        }
                    }
                case .keyframe, .end, .unknown:
                    break
                }
                return .next
            }
        }
        if !progress.stopped, progress.seq <= through {
            throw .malformedLine(path: segment.path, line: segment.lineNumber(at: segment.dataEnd), reason: "transaction \(progress.seq) is missing")
        }
        declared = atoms.isChecking ? atoms.declared : nil
        return progress.stopped ? nil : progress.seq
    }

    /// Where a pass is: the step it lists next, whether it stopped (its body asked to) or is
    /// done, and the write site looked up last (consecutive transactions mostly come from one
    /// place: its text is looked up once).
    private final class ListingProgress {
        // Unchecked exclusivity: touched by the pass's thread, one access at a time, on every
        // line.
        @exclusivity(unchecked) var seq: Int
        @exclusivity(unchecked) var stopped = false
        @exclusivity(unchecked) var done = false
        @exclusivity(unchecked) var lastLocation: (id: Int, text: String?) = (0, nil)

        init(seq: Int) {
            self.seq = seq
        }

        /// Whether the last step has been listed and no timing line is wanted after it: the
        /// pass then stops without reading the next line (whose kind, read by the scan, may be
        /// damaged: a listing that ends before it does not read it).
        func isPastLast(_ through: Int, _ timings: ListingTimings?) -> Bool {
            guard seq > through, timings?.wantsMore != true else { return false }
            done = true
            return true
        }
    }

    /// The atoms declared so far in a pass, when it checks them.
    private final class ListedAtoms {
        // Unchecked exclusivity: touched by the pass's thread, one access at a time.
        @exclusivity(unchecked) var declared: DeclaredAtoms
        let isChecking: Bool

        init(_ declared: DeclaredAtoms?) {
            self.declared = declared ?? DeclaredAtoms()
            isChecking = declared != nil
        }
    }

    /// Reads the lines from `offset` to the segment's end as reading in order reads them after
    /// its last transaction (`SeekableSegment`'s `readOn`): each line's place in the sequence,
    /// each location line, and each transaction's envelope.
    private static func readOn(_ segment: any JournalSegment, from start: Int, locations known: [Int: String]) throws(JournalError) {
        try StepScan(segment: segment, offset: start, locations: known, check: SequenceCheck(after: segment.lastStep)).readToEnd()
    }
}
