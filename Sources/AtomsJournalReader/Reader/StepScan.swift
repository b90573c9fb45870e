/// The engine that reads a journal's steps in order: a cursor over one segment's lines, read
/// through one buffer in one loop (``LineReader/readOn(from:to:_:)``), each line handed to a
/// visitor as what it is. Every in-order reading of steps goes through it: ``TransactionWalk``
/// applies what it hands to a state (the search, export, the report, `compare`,
/// `AtomsTesting`), the listing (``JournalReader/forEachTransaction(from:through:declared:_:)``)
/// formats it without one (`log`, `profile`, `replay-test`'s plan).
///
/// What it decides for every visitor, once:
/// - a packed timing line (4.3) is passed by on its first byte, for what finding its end
///   costs (``LineScanner/isPackedTiming(_:in:)``), before the end line only: after it, any
///   line is damage, which its kind says;
/// - a transaction line in the common shape is read as its envelope's bytes
///   (``TransactionEnvelope``), with no record built; a visitor that wants more asks for the
///   line's kind (``Verdict/readInFull``);
/// - any other line is handed by kind (``LineScanner/kind(of:in:verify:)``), a damaged one
///   named by its file and line number as every reader names it.
///
/// The visitor keeps the line's place in the sequence (``take(_:at:)``) and reads a location
/// line (``location(in:_:)``) when it needs to: readers differ on which lines they check,
/// and each keeps the order in which it checks them, so a damaged journal reads as before.
final class StepScan {
    /// A line, as the scan hands it to its visitor.
    enum Line {
        /// A packed timing line (4.3's string line), not parsed.
        case packedTiming
        /// A transaction line in the common shape: its atoms and the ranges of their values
        /// are the first `count` of ``atoms`` and ``valueRanges``. Its step is the line's own,
        /// not yet checked against the sequence.
        case envelope(TransactionEnvelope, count: Int)
        /// Any other line, by kind: a transaction not in the common shape, a location, a
        /// keyframe, a timing object, the end line, a type of a later minor version.
        case other(LineKind)

        /// The line's kind, as reading it in full says (a packed timing line is a timing
        /// line); `nil` for an envelope, which a visitor that wants its kind asks for again
        /// (``Verdict/readInFull``).
        var kind: LineKind? {
            switch self {
            case .envelope: nil
            case .packedTiming: .timing
            case .other(let kind): kind
            }
        }
    }

    /// What the visitor does with a line.
    enum Verdict {
        /// Takes the line and goes on to the next.
        case next
        /// Takes the line and stops after it.
        case stopAfter
        /// Leaves the line unread and stops before it: the next run starts there.
        case stopBefore
        /// For ``Line/envelope(_:count:)``: hand the line again by its kind.
        case readInFull
    }

    let segment: any JournalSegment
    let scanner: LineScanner
    /// The segment's format version, data end and last step, read once.
    let version: Int
    let dataEnd: Int
    let lastStep: Int
    // Unchecked exclusivity: a scan is used by one thread, and its visitor (called inside
    // `run`) reads and writes these while `run` reads lines; a checked access on every line
    // would cost more than the line.
    @exclusivity(unchecked) var lines: LineReader
    /// Where the next line is read.
    @exclusivity(unchecked) var offset: Int
    /// The source locations declared so far, by number.
    @exclusivity(unchecked) var locations: [Int: String]
    /// The order of the lines read so far.
    @exclusivity(unchecked) var check: SequenceCheck
    /// Every location number from 1 to this one is declared (a recorder numbers them so):
    /// most steps' write sites are found declared without a lookup.
    @exclusivity(unchecked) private var declaredThrough = 0
    /// The offset of the last transaction line a walk skipped on its bytes (-1 before any).
    @exclusivity(unchecked) var lastSkippedLine = -1
    /// The atoms of the last envelope handed over, and where their values are in its line.
    let atoms = UnsafeMutablePointer<Int>.allocate(capacity: TransactionEnvelope.idCapacity)
    let valueRanges = UnsafeMutablePointer<Range<Int>>.allocate(capacity: TransactionEnvelope.idCapacity)

    /// A scan of `segment` from the line at `offset`, with the locations declared before it
    /// and the order checked so far.
    init(segment: any JournalSegment, offset: Int, locations: [Int: String], check: SequenceCheck) {
        self.segment = segment
        scanner = segment.scanner
        version = segment.header.version
        dataEnd = segment.dataEnd
        lastStep = segment.lastStep
        lines = LineReader(file: segment.file)
        self.offset = offset
        self.locations = locations
        self.check = check
    }

    /// A scan from transaction `seq`'s line, as the segment finds it.
    convenience init(segment: any JournalSegment, transaction seq: Int) throws(JournalError) {
        let (offset, locations) = try segment.transactionLine(seq)
        self.init(segment: segment, offset: offset, locations: locations, check: SequenceCheck(after: seq - 1))
    }

    deinit {
        atoms.deallocate()
        valueRanges.deallocate()
    }

    /// Hands `visit` each line from ``offset`` on, until it stops or the segment's data ends;
    /// ``offset`` is then the first line not taken.
    ///
    /// - Throws: What `visit` throws, or ``JournalError`` for a line whose kind cannot be read.
    @inline(__always)
    func run(_ visit: (Line, UnsafeRawBufferPointer, LineReader.Line) throws(JournalError) -> Verdict) throws(JournalError) {
        let (scanner, version, atoms, valueRanges) = (self.scanner, self.version, self.atoms, self.valueRanges)
        var stopped = false
        // One loop over the buffer at a time: a buffer read to its end is filled again.
        while offset < dataEnd, !stopped {
            offset = try lines.readOn(from: offset, to: dataEnd) { raw, line throws(JournalError) -> LineReader.Reading in
                let verdict: Verdict
                if !check.isEnded, scanner.isPackedTiming(line.range, in: raw) {
                    verdict = try visit(.packedTiming, raw, line)
                } else {
                    var count = 0
                    var read = Verdict.readInFull
                    if let envelope = TransactionEnvelope.read(raw, line.range, version: version, ids: atoms, count: &count, values: valueRanges) {
                        read = try visit(.envelope(envelope, count: count), raw, line)
                    }
                    if read == .readInFull {
                        let kind: LineKind
                        do {
                            kind = try scanner.kind(of: line.range, in: raw)
                        } catch {
                            throw damaged(error, raw, line)
                        }
                        verdict = try visit(.other(kind), raw, line)
                    } else {
                        verdict = read
                    }
                }
                switch verdict {
                case .next, .readInFull: return .next
                case .stopAfter:
                    stopped = true
                    return .stopAfter
                case .stopBefore:
                    stopped = true
                    return .stopBefore
                }
            }
        }
    }

    /// Reads every line from ``offset`` to the data's end as reading in order reads the lines
    /// after a segment's last transaction: each line's place in the sequence, each location
    /// line, and each transaction's line in full (its values left undecoded).
    ///
    /// - Throws: ``JournalError`` for the first of those lines that is malformed or out of
    ///   sequence.
    func readToEnd() throws(JournalError) {
        try run { line, raw, bytes throws(JournalError) -> Verdict in
            // A packed timing line is handed over only before the end line, where its place
            // takes nothing.
            if case .packedTiming = line { return .next }
            guard let kind = line.kind else { return .readInFull }
            try take(kind, at: bytes.offset)
            switch kind {
            case .transaction:
                do {
                    _ = try scanner.transaction(in: raw, bytes.range, locations: locations, decoding: { _ in false })
                } catch {
                    throw damaged(error, raw, bytes)
                }
            case .location:
                _ = try location(in: raw, bytes)
            case .keyframe, .end, .timing, .unknown:
                break
            }
            return .next
        }
    }

    /// Takes a line found between transactions as a walk of steps takes it: a timing line or
    /// a type of a later minor version is passed by, a location line noted, a keyframe's
    /// place in the sequence taken. `false` for any other line (a transaction, an end line),
    /// which the caller decides on.
    func passesBetweenSteps(_ line: Line, _ raw: UnsafeRawBufferPointer, _ bytes: LineReader.Line) throws(JournalError) -> Bool {
        switch line {
        case .packedTiming, .other(.timing), .other(.unknown):
            return true
        case .other(.location):
            _ = try location(in: raw, bytes)
            return true
        case .other(.keyframe(let step)):
            try take(.keyframe(seq: step), at: bytes.offset)
            return true
        case .envelope, .other:
            return false
        }
    }

    /// Takes a line's place in the sequence: a step out of order is named by its line.
    @inline(__always)
    func take(_ kind: LineKind, at offset: Int) throws(JournalError) {
        do throws(SequenceCheck.Violation) {
            try check.take(kind)
        } catch {
            throw error.error(path: segment.path, line: segment.lineNumber(at: offset))
        }
    }

    /// Whether location `number`, a transaction's write site, is declared by the lines read
    /// so far (0 is no location). A line that names one not declared is read in full, so that
    /// the reader names it.
    @inline(__always)
    func declares(location number: Int) -> Bool {
        // One comparison for 0…declaredThrough (0 is no location); a negative number fails it.
        UInt(bitPattern: number) <= UInt(declaredThrough) || declaresBeyondTheRun(number)
    }

    private func declaresBeyondTheRun(_ number: Int) -> Bool {
        while locations[declaredThrough + 1] != nil { declaredThrough += 1 }
        return (number >= 0 && number <= declaredThrough) || locations[number] != nil
    }

    /// Reads a location line and notes it in ``locations``.
    func location(in raw: UnsafeRawBufferPointer, _ line: LineReader.Line) throws(JournalError) -> LocationRecord {
        do {
            let location = try scanner.location(in: raw, line.range)
            locations[location.id] = location.at
            return location
        } catch {
            throw damaged(error, raw, line)
        }
    }

    /// A damaged line's error, naming its file and line.
    func damaged(_ error: Error, _ raw: UnsafeRawBufferPointer, _ line: LineReader.Line) -> JournalError {
        JournalError.line(error, path: segment.path, bytes: raw, range: line.range, number: segment.lineNumber(at: line.offset))
    }
}
