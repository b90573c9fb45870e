import Foundation

/// One pass over a journal's bytes: validates the header, finds every transaction and keyframe
/// line by its prefix, and checks sequence numbers.
struct JournalIndexer {
    let path: String
    let data: MappedFile
    var header: JournalHeader?
    var warnings: [JournalWarning] = []
    var firstStep: Int?
    var lastStep = 0
    var transactionOffsets: [Int] = []
    var transactionLines: [Int32] = []
    var keyframes: [(step: Int, offset: Int, line: Int)] = []
    /// Source locations by number (format 2), from `loc` lines.
    var locations: [Int: String] = [:]

    /// What a line holds.
    enum LineKind {
        case transaction(seq: Int)
        case keyframe(seq: Int)
        case location

        /// The step of a transaction or keyframe line.
        var seq: Int? {
            switch self {
            case .transaction(let seq), .keyframe(let seq): seq
            case .location: nil
            }
        }
    }

    private static let transactionPrefix = Array(#"{"type":"tx","seq":"#.utf8)
    private static let keyframePrefix = Array(#"{"type":"keyframe","seq":"#.utf8)

    init(path: String, data: MappedFile) {
        self.path = path
        self.data = data
    }

    /// The bytes of the line starting at `offset`, without the newline.
    static func line(in data: MappedFile, at offset: Int) -> Data {
        let end = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            nextNewline(in: raw, from: offset)
        }
        return data.subdata(in: data.startIndex + offset ..< data.startIndex + end)
    }

    /// The offset of the next newline at or after `start`, or the end of the buffer.
    static func nextNewline(in raw: UnsafeRawBufferPointer, from start: Int, within limit: Int = .max) -> Int {
        let end = limit >= raw.count - start ? raw.count : start + limit
        guard let base = raw.baseAddress, start < end,
            let found = memchr(base + start, 0x0A, end - start)
        else {
            return end
        }
        return UnsafeRawPointer(found) - base
    }

    /// Bytes indexed between handing pages back to the kernel.
    private static let window = 8 << 20

    mutating func run(progress: ((Double) -> Void)?) throws(JournalError) {
        let count = data.count
        let endsWithNewline = data.last == 0x0A
        var expectedSeq: Int?
        var lineNumber = 0
        var start = 0
        var released = 0
        while start < count {
            // The header is searched for its end no further than it may be long: a large file
            // of something else is rejected without being read.
            let limit = lineNumber == 0 ? Self.maximumHeaderLength + 1 : .max
            let end = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in Self.nextNewline(in: raw, from: start, within: limit) }
            lineNumber += 1
            let line = (offset: start, end: end)
            let isLast = end + 1 >= count
            start = end + 1
            if lineNumber == 1 {
                try readHeader(line)
                continue
            }
            guard line.end > line.offset else {
                throw .malformedLine(path: path, line: lineNumber, reason: "empty line")
            }
            let kind: LineKind
            do {
                kind = try classify(line, lineNumber: lineNumber, verifyFully: isLast)
            } catch {
                if isLast && !endsWithNewline {
                    warnings.append(JournalWarning(path: path, line: lineNumber, message: "the last line is incomplete (the recording stopped mid-write); it was ignored"))
                    break
                }
                throw error
            }
            if let seq = kind.seq, !JournalFormat.stepRange.contains(seq) {
                throw .malformedLine(path: path, line: lineNumber, reason: "step \(seq) is out of range (steps are 0…\(JournalFormat.stepRange.upperBound))")
            }
            switch kind {
            case .transaction(let seq):
                guard let expected = expectedSeq else {
                    throw .malformedLine(path: path, line: lineNumber, reason: "transaction before the first keyframe")
                }
                if seq < expected {
                    throw .duplicateSequence(path: path, line: lineNumber, seq: seq)
                }
                if seq > expected {
                    throw .missingSequence(path: path, line: lineNumber, expected: expected, found: seq)
                }
                transactionOffsets.append(line.offset)
                transactionLines.append(Int32(truncatingIfNeeded: lineNumber))
                lastStep = seq
                expectedSeq = seq + 1
            case .keyframe(let seq):
                if let expected = expectedSeq, seq != expected - 1 {
                    throw .malformedLine(path: path, line: lineNumber, reason: "keyframe for step \(seq) follows transaction \(expected - 1)")
                }
                if firstStep == nil {
                    firstStep = seq
                    lastStep = seq
                }
                keyframes.append((seq, line.offset, lineNumber))
                expectedSeq = seq + 1
            case .location:
                break
            }
            if start - released >= Self.window {
                // Indexed pages are not needed again until a line is decoded: hand them back,
                // so opening a journal never holds the whole file in memory.
                releasePages(from: released, to: start)
                released = start
                progress?(Double(start) / Double(count))
            }
        }
        releasePages(from: released, to: count)
        guard firstStep != nil else {
            throw .malformedLine(path: path, line: 2, reason: "no keyframe follows the header")
        }
        progress?(1)
    }

    /// Drops the resident pages of an indexed range of the mapped file (they are re-read from
    /// the page cache if needed).
    private func releasePages(from lower: Int, to upper: Int) {
        data.releasePages(lower..<upper)
    }

    /// The longest header line read: a real one is about 150 bytes; a longer first line is not
    /// copied, so a large file of something else is rejected at once.
    private static let maximumHeaderLength = 64 << 10

    private mutating func readHeader(_ line: (offset: Int, end: Int)) throws(JournalError) {
        header = try Self.header(in: data, path: path, line: line.offset..<line.end)
    }

    /// The header of a journal: the first line of `data`, which must be one.
    static func header(in data: MappedFile, path: String) throws(JournalError) -> (header: JournalHeader, end: Int) {
        let end = data.withUnsafeBytes { nextNewline(in: $0, from: 0, within: maximumHeaderLength + 1) }
        return (try header(in: data, path: path, line: 0..<end), end)
    }

    private static func header(in data: MappedFile, path: String, line: Range<Int>) throws(JournalError) -> JournalHeader {
        let shown = data.subdata(in: line.lowerBound ..< min(line.upperBound, line.lowerBound + 80))
        let text = String(decoding: shown, as: UTF8.self)
        guard shown.first == UInt8(ascii: "{"), line.count <= Self.maximumHeaderLength else {
            throw .notAJournal(path: path, found: text)
        }
        let bytes = data.subdata(in: line)
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            object["format"] as? String == JournalFormat.name
        else {
            throw .notAJournal(path: path, found: text)
        }
        guard let version = object["version"] as? Int else {
            throw .notAJournal(path: path, found: text)
        }
        guard JournalFormat.readableMajorVersions.contains(version) else {
            throw .unsupportedVersion(path: path, version: version)
        }
        do {
            return try JSONDecoder().decode(JournalHeader.self, from: bytes)
        } catch {
            throw .malformedLine(path: path, line: 1, reason: Self.describe(error))
        }
    }

    /// What a line holds, and its step: read from the fixed prefix the recorder writes, or by
    /// decoding the line when it was written differently (or when `verifyFully`, for the last
    /// line, which may be torn). Location lines are decoded and kept.
    private mutating func classify(_ line: (offset: Int, end: Int), lineNumber: Int, verifyFully: Bool) throws(JournalError) -> LineKind {
        let isCompact = header?.version ?? 1 >= 2
        if !verifyFully, let sniffed = sniff(line, compact: isCompact) {
            return sniffed
        }
        let bytes = data.subdata(in: data.startIndex + line.offset ..< data.startIndex + line.end)
        let version = header?.version ?? 1
        do {
            if isCompact, bytes.first == UInt8(ascii: "[") {
                let transaction = try bytes.withUnsafeBytes { raw in
                    try CompactTransactionLine(bytes: raw, range: 0..<raw.count, version: version)
                }
                return .transaction(seq: transaction.seq)
            }
            let kind = try JSONDecoder().decode(JournalLines.TypedObject.self, from: bytes)
            switch kind.type {
            case "tx" where !isCompact:
                if verifyFully {
                    _ = try JSONDecoder().decode(TransactionRecord.self, from: bytes)
                }
                return .transaction(seq: try kind.requiredSeq())
            case "keyframe":
                if verifyFully {
                    _ = try bytes.withUnsafeBytes { raw in
                        try KeyframeLine(bytes: raw, range: 0..<raw.count, decoding: { _ in true })
                    }
                }
                return .keyframe(seq: try kind.requiredSeq())
            case "loc" where isCompact:
                let location = try JSONDecoder().decode(LocationRecord.self, from: bytes)
                locations[location.id] = location.at
                return .location
            default:
                throw JournalError.malformedLine(path: path, line: lineNumber, reason: "unknown record type \(kind.type.debugDescription)")
            }
        } catch let error as JournalError {
            throw error
        } catch {
            if String(validating: bytes, as: UTF8.self) == nil {
                throw .notUTF8(path: path, line: lineNumber)
            }
            throw .malformedLine(path: path, line: lineNumber, reason: Self.describe(error))
        }
    }

    private func sniff(_ line: (offset: Int, end: Int), compact: Bool) -> LineKind? {
        data.withUnsafeBytes { raw -> LineKind? in
            let range = line.offset..<line.end
            if compact {
                // Formats 2 and 3 have no end line nor other line types: those are decoded, and
                // rejected, with the reason.
                switch JournalLines.sniff(raw, line: range) {
                case .transaction(let seq)?: return .transaction(seq: seq)
                case .keyframe(let seq)?: return .keyframe(seq: seq)
                default: return nil
                }
            }
            let prefixes: [(prefix: [UInt8], kind: (Int) -> LineKind)] = [
                (Self.transactionPrefix, { .transaction(seq: $0) }),
                (Self.keyframePrefix, { .keyframe(seq: $0) }),
            ]
            for (prefix, kind) in prefixes where range.count > prefix.count && raw[range.lowerBound..<range.lowerBound + prefix.count].elementsEqual(prefix) {
                return JournalLines.step(in: raw, from: range.lowerBound + prefix.count, lineEnd: range.upperBound).map(kind)
            }
            return nil
        }
    }

    /// A short description of a decoding error.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, _):
            return "missing field \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field \"\(field)\" has the wrong type"
        case let error as JSONScanner.SyntaxError:
            return error.description
        default:
            return String(describing: error)
        }
    }
}
