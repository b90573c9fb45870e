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
        var context = TimingContext()
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
        var context = TimingContext()
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
    /// returns `false`, in one loop over the read buffer. Lines are told apart as every reader
    /// tells them (``LineScanner/kind(of:in:verify:)``); only timing lines are parsed, and the
    /// start of transaction lines in a journal whose timing lines are compact (they count
    /// from their transaction).
    private func forEachTimingLine(in segment: any JournalSegment, from offset: Int, context: inout TimingContext, _ body: (TimingLine) -> Bool) throws(JournalError) {
        var reader = LineReader(file: segment.file)
        let scanner = segment.lines.scanner
        let compact = header.minor >= JournalFormat.compactTimingMinorVersion
        var offset = offset
        if offset == 0 {
            // A segment's lines name the shapes of its own timing lines, as its writer did.
            context.beginSegment()
            if segment.dataEnd > 0 {
                // Line 1 is the header, which is not a line of the journal's kinds.
                offset = try reader.line(at: 0).next
            }
        }
        let packed = header.minor >= JournalFormat.packedTimingMinorVersion
        var stopped = false
        while offset < segment.dataEnd, !stopped {
            offset = try reader.readOn(from: offset, to: segment.dataEnd) { raw, line throws(JournalError) -> LineReader.Reading in
                do {
                    switch try scanner.kind(of: line.range, in: raw) {
                    case .timing where packed && PackedTimingLine.isLine(raw, line.range):
                        if let timing = try context.timing(ofPacked: raw, line.range), !body(timing) {
                            stopped = true
                            return .stopAfter
                        }
                    case .location where packed:
                        try context.noteLocation(scanner.location(in: raw, line.range))
                    case .keyframe where packed && !context.readsLocations:
                        context.noteLocations(try KeyframeLine.locations(in: raw, line.range))
                    case .timing where compact && CompactTimingLine.isLine(raw, line.range):
                        if let timing = context.timing(of: try CompactTimingLine(bytes: raw, range: line.range)), !body(timing) {
                            stopped = true
                            return .stopAfter
                        }
                    case .timing:
                        if !body(try TimingLine(bytes: raw, range: line.range)) {
                            stopped = true
                            return .stopAfter
                        }
                    case .transaction where compact:
                        try context.noteTransaction(raw, line.range)
                    default:
                        break
                    }
                    return .next
                } catch {
                    throw JournalError.line(error, path: segment.path, bytes: raw, range: line.range, number: segment.lineNumber(at: line.offset))
                }
            }
        }
    }
}

/// What reading compact timing lines needs to know of the lines before: the last
/// transactions' steps, starts and origins, and the subscriber locations declared.
struct TimingContext {
    /// The last transactions read, oldest first (a timing line comes at most a few
    /// transactions after its own: those its subscribers started).
    private var transactions: [(seq: Int, start: Int, origin: Int)] = []
    private var locations: [Int: String] = [:]
    private static let kept = 64
    /// Packed timing lines (4.3): the segment's recent shapes, the `loc` lines' locations, and
    /// whether the segment's first keyframe declared them.
    private var shapes = PackedTimingLine.RecentShapes()
    private var locationLines: [Int: String] = [:]
    private(set) var readsLocations = false

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
        guard let last = transactions.last else { return nil }
        let seq = last.seq - line.back
        guard let transaction = transactions.last(where: { $0.seq == seq }) else { return nil }
        return line.timing(seq: seq, start: transaction.start, origin: transaction.origin, locations: locationLines)
    }

    /// Notes a transaction line's step, time and origin (`[seq,t,"cause",origin,…`).
    mutating func noteTransaction(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws(JSONScanner.SyntaxError) {
        var scanner = JSONScanner(raw, range: range)
        try scanner.expect(UInt8(ascii: "["))
        let seq = try scanner.integer()
        try scanner.expect(UInt8(ascii: ","))
        let t = try scanner.double()
        try scanner.expect(UInt8(ascii: ","))
        _ = try scanner.string()
        try scanner.expect(UInt8(ascii: ","))
        let origin = try scanner.integer()
        if transactions.count == Self.kept { transactions.removeFirst() }
        // `t` is in milliseconds, to the microsecond.
        transactions.append((seq, Int((t * 1_000_000).rounded()), origin))
    }

    /// The timing `line` gives, once its locations are declared; `nil` when its transaction
    /// was not read (it is before the journal's first line).
    mutating func timing(of line: CompactTimingLine) -> TimingLine? {
        for location in line.locations {
            locations[location.number] = location.at
        }
        guard let last = transactions.last else { return nil }
        let seq = last.seq - line.back
        guard let transaction = transactions.last(where: { $0.seq == seq }) else { return nil }
        return line.timing(seq: seq, start: transaction.start, origin: transaction.origin, locations: locations)
    }
}
