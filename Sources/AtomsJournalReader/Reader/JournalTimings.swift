extension JournalReader {
    /// Whether the journal's recorder timed its transactions (format 4.1, and 4.2 on unless
    /// its header says `"timed":false`): a journal without timing lines is not the same as a
    /// journal whose transactions cost nothing.
    package var recordsTimings: Bool {
        header.isTimed
    }

    /// The format as messages about timing name it: `4.0`, or `4.2, timing off` for a
    /// journal whose header says it has no timing lines.
    package var timingFormatText: String {
        "\(header.version).\(header.minor)" + (header.timed == false ? ", timing off" : "")
    }

    /// The timing lines of transactions `steps`, by transaction, read in one pass over every
    /// line of the journal's segments (a timing line follows its transaction, not always
    /// right after it: the transactions its subscribers started come first).
    ///
    /// - Throws: ``JournalError`` naming a timing line that is malformed, or a file that
    ///   changed while it was read.
    /// - Complexity: Reads the journal once, up to the timing line of the last of `steps` when
    ///   every one of them has its line (the lines after it are left to the caller's reading
    ///   of transactions, which names damage there in the order reading in order meets it);
    ///   parses only its timing lines.
    package func timings(of steps: ClosedRange<Int>) throws(JournalError) -> [Int: TimingLine] {
        var timings: [Int: TimingLine] = [:]
        var context = TimingContext(header)
        for segment in allSegments where segment.lastStep >= steps.lowerBound {
            try forEachTimingLine(in: segment, from: 0, context: &context) { timing in
                if steps.contains(timing.seq) {
                    timings[timing.seq] = timing
                }
                return timings.count < steps.count
            }
            if timings.count == steps.count { break }
        }
        return timings
    }

    /// The timing line of transaction `seq`, or `nil` when it has none (a journal recorded
    /// without timing, or one whose recording stopped before the line was written).
    ///
    /// - Throws: ``JournalError`` for a step out of range, a malformed line, or a file that
    ///   changed while it was read.
    /// - Complexity: Finds the transaction's line as ``transaction(_:decodingValuesOf:)`` does,
    ///   then reads forward to its timing line: usually the next line, after the lines of the
    ///   transactions its subscribers started otherwise. A compact timing line (4.2) names its
    ///   subscribers by numbers declared since the segment began: the segment is read from
    ///   its start.
    package func timing(of seq: Int) throws(JournalError) -> TimingLine? {
        guard recordsTimings, seq > firstStep, seq <= lastStep else { return nil }
        let segments = allSegments.filter { $0.lastStep >= seq }
        guard let first = segments.first(where: { $0.firstStep < seq }) else { return nil }
        let compact = header.minor >= JournalFormat.compactTimingMinorVersion
        var context = TimingContext(header)
        // The line may sit in a later segment of a bounded journal, when one began between.
        for segment in segments where segment.firstStep >= first.firstStep {
            var found: TimingLine?
            let offset = segment === first && !compact ? try segment.transactionLine(seq).offset : 0
            try forEachTimingLine(in: segment, from: offset, context: &context) { timing in
                if timing.seq == seq { found = timing }
                return found == nil
            }
            if let found { return found }
        }
        return nil
    }

    /// Calls `body` with each timing line of `segment` from byte `offset` on, until it
    /// returns `false`, on the engine every in-order reading takes (``StepScan``). Lines are
    /// told apart as every reader tells them (``LineScanner/kind(of:in:verify:)``); only
    /// timing lines are parsed, and the start of transaction lines in a journal whose timing
    /// lines are compact (they count from their transaction). No line's place in the sequence
    /// is checked: the reading of the steps does that.
    func forEachTimingLine(in segment: any JournalSegment, from offset: Int, context: inout TimingContext, _ body: (TimingLine) -> Bool) throws(JournalError) {
        var offset = offset
        if offset == 0 {
            // A segment's lines name the shapes of its own timing lines, as its writer did.
            context.beginSegment()
            if segment.dataEnd > 0 {
                // Line 1 is the header, which is not a line of the journal's kinds.
                var reader = LineReader(file: segment.file)
                offset = try reader.line(at: 0).next
            }
        }
        let scan = StepScan(segment: segment, offset: offset, locations: [:], check: SequenceCheck(startsAnywhere: true))
        let scanner = scan.scanner
        var stopped = false
        while scan.offset < scan.dataEnd, !stopped {
            try scan.run { line, raw, bytes throws(JournalError) -> StepScan.Verdict in
                guard let kind = line.kind else { return .readInFull }
                do {
                    if let timing = try context.take(kind, raw, bytes.range, scanner: scanner), !body(timing) {
                        stopped = true
                        return .stopAfter
                    }
                    return .next
                } catch {
                    throw scan.damaged(error, raw, bytes)
                }
            }
        }
    }
}

/// What reading compact timing lines needs to know of the lines before: the last
/// transactions' steps, starts and origins, and the subscriber locations declared.
///
/// Both readers of timing lines read every line through here: ``JournalReader/timings(of:)``
/// (and `timing(of:)`) with ``take(_:_:_:scanner:)``, and `log`'s listing when `profile` reads
/// the transactions with their timing lines in one pass
/// (``JournalReader/forEachTimedTransaction(from:through:_:timing:)``).
struct TimingContext {
    /// The last transactions read, the most recent at `newest` (a timing line comes at most a
    /// few transactions after its own: those its subscribers started). A ring: a transaction
    /// is noted on every step.
    private var transactions: [(seq: Int, start: Int, origin: Int)] = []
    private var newest = -1
    private var locations: [Int: String] = [:]
    private static let kept = 64
    /// Packed timing lines (4.3): the segment's recent shapes, the `loc` lines' locations, and
    /// whether the segment's first keyframe declared them.
    private var shapes = PackedTimingLine.RecentShapes()
    private var locationLines: [Int: String] = [:]
    private(set) var readsLocations = false
    /// The journal's timing lines are compact (4.2, counting from their transaction) or packed
    /// (4.3, also naming subscribers by `loc` numbers).
    let compact: Bool
    let packed: Bool

    init(_ header: JournalHeader) {
        compact = header.minor >= JournalFormat.compactTimingMinorVersion
        packed = header.minor >= JournalFormat.packedTimingMinorVersion
    }

    /// Takes one line of kind `kind` as the readers of timing lines read it: returns the timing
    /// a timing line gives (`nil` for one whose transaction was not read), and notes what
    /// later ones count from (a transaction's start, a location).
    ///
    /// - Throws: What parsing the line throws.
    mutating func take(_ kind: LineKind, _ raw: UnsafeRawBufferPointer, _ range: Range<Int>, scanner: LineScanner) throws -> TimingLine? {
        switch kind {
        case .timing where packed && PackedTimingLine.isLine(raw, range):
            return try timing(ofPacked: raw, range)
        case .location where packed:
            noteLocation(try scanner.location(in: raw, range))
        case .keyframe where packed && !readsLocations:
            noteLocations(try KeyframeLine.locations(in: raw, range))
        case .timing:
            return try timing(ofObject: raw, range)
        case .transaction where compact:
            try noteTransaction(raw, range)
        default:
            break
        }
        return nil
    }

    /// The timing a timing line written as an object gives: compact (4.2) or whole (4.1).
    mutating func timing(ofObject raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> TimingLine? {
        if compact && CompactTimingLine.isLine(raw, range) {
            return timing(of: try CompactTimingLine(bytes: raw, range: range))
        }
        return try TimingLine(bytes: raw, range: range)
    }

    /// Forgets what only the lines of one segment declare.
    mutating func beginSegment() {
        shapes = .init()
        readsLocations = false
    }

    /// Notes a location line (4.3's subscribers are named by them).
    mutating func noteLocation(_ location: LocationRecord) {
        locationLines[location.id] = location.at
    }

    /// Notes the locations a segment's first keyframe declares.
    mutating func noteLocations(_ declared: [LocationDeclaration]) {
        for location in declared { locationLines[location.id] = location.at }
        readsLocations = true
    }

    /// The timing a packed line gives; `nil` when its transaction was not read.
    ///
    /// - Throws: ``PackedTimingLine/Problem`` for a malformed line.
    mutating func timing(ofPacked raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws(PackedTimingLine.Problem) -> TimingLine? {
        let line = try PackedTimingLine.read(raw, range, shapes: &shapes)
        guard let transaction = transaction(back: line.back) else { return nil }
        return line.timing(seq: transaction.seq, start: transaction.start, origin: transaction.origin, locations: locationLines)
    }

    /// The transaction `back` before the last one read, if it is among those kept.
    private func transaction(back: Int) -> (seq: Int, start: Int, origin: Int)? {
        guard newest >= 0 else { return nil }
        let seq = transactions[newest].seq - back
        // The most recent with that step (a damaged journal may repeat one).
        var index = newest
        for _ in 0..<transactions.count {
            if transactions[index].seq == seq { return transactions[index] }
            index = index == 0 ? transactions.count - 1 : index - 1
        }
        return nil
    }

    /// Notes a transaction line's step, time and origin (`[seq,t,"cause",origin,…`).
    mutating func noteTransaction(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws(JSONScanner.SyntaxError) {
        var scanner = JSONScanner(raw, range: range)
        try scanner.expect(UInt8(ascii: "["))
        let seq = try scanner.integer()
        try scanner.expect(UInt8(ascii: ","))
        let time = try scanner.numberRange()
        try scanner.expect(UInt8(ascii: ","))
        _ = try scanner.string()
        try scanner.expect(UInt8(ascii: ","))
        let origin = try scanner.integer()
        noteTransaction(seq: seq, start: Self.nanoseconds(ofMilliseconds: UnsafeRawBufferPointer(rebasing: raw[time])), origin: origin)
    }

    /// Notes a transaction read otherwise: its step, its start in nanoseconds, its origin.
    mutating func noteTransaction(seq: Int, start: Int, origin: Int) {
        if transactions.count < Self.kept {
            transactions.append((seq, start, origin))
            newest = transactions.count - 1
        } else {
            newest = newest == Self.kept - 1 ? 0 : newest + 1
            transactions[newest] = (seq, start, origin)
        }
    }

    /// A transaction's `t` (milliseconds, to the microsecond) in nanoseconds, as
    /// `Int((t * 1_000_000).rounded())` gives them. Plain text (digits, and at most six after a
    /// point, below 10^9 ms) is read digit by digit, where that product is exact; any other
    /// through a `Double` (``nanoseconds(ofMilliseconds:)-(Double)``).
    static func nanoseconds(ofMilliseconds text: UnsafeRawBufferPointer) -> Int {
        var value = 0
        var index = 0
        while index < text.count, index < 9, text[index] >= 0x30, text[index] <= 0x39 {
            value = value * 10 + Int(text[index] - 0x30)
            index += 1
        }
        var scale = 1_000_000
        if index > 0, index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, scale > 1, text[index] >= 0x30, text[index] <= 0x39 {
                scale /= 10
                value = value * 10 + Int(text[index] - 0x30)
                index += 1
            }
        }
        if index == text.count, index > 0, text[index - 1] != UInt8(ascii: ".") {
            return value * scale
        }
        return nanoseconds(ofMilliseconds: Double(String(decoding: text, as: UTF8.self)) ?? 0)
    }

    /// A time in milliseconds as nanoseconds, as `Int((t * 1_000_000).rounded())` gives them;
    /// a time no clock gives (a damaged line, which every other reader accepts: `t` is any
    /// JSON number) is held at ±9 × 10^18 rather than trapping the conversion.
    static func nanoseconds(ofMilliseconds t: Double) -> Int {
        let nanoseconds = (t * 1_000_000).rounded()
        guard abs(nanoseconds) < Self.nanosecondsLimit else {
            return nanoseconds < 0 ? -Int(Self.nanosecondsLimit) : Int(Self.nanosecondsLimit)
        }
        return Int(nanoseconds)
    }

    private static let nanosecondsLimit = 9e18

    /// The timing `line` gives, once its locations are declared; `nil` when its transaction
    /// was not read (it is before the journal's first line).
    mutating func timing(of line: CompactTimingLine) -> TimingLine? {
        for location in line.locations {
            locations[location.number] = location.at
        }
        guard let transaction = transaction(back: line.back) else { return nil }
        return line.timing(seq: transaction.seq, start: transaction.start, origin: transaction.origin, locations: locations)
    }
}
