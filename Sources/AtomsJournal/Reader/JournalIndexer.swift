import Foundation

/// One pass over a journal's bytes: validates the header, finds every transaction and keyframe
/// line by its prefix, and checks sequence numbers.
struct JournalIndexer {
    let path: String
    let data: Data
    var header: JournalHeader?
    var warnings: [JournalWarning] = []
    var firstStep: Int?
    var lastStep = 0
    var transactionOffsets: [Int] = []
    var transactionLines: [Int32] = []
    var keyframes: [(step: Int, offset: Int, line: Int)] = []

    private static let transactionPrefix = Array(#"{"type":"tx","seq":"#.utf8)
    private static let keyframePrefix = Array(#"{"type":"keyframe","seq":"#.utf8)

    init(path: String, data: Data) {
        self.path = path
        self.data = data
    }

    /// The bytes of the line starting at `offset`, without the newline.
    static func line(in data: Data, at offset: Int) -> Data {
        let end = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            nextNewline(in: raw, from: offset)
        }
        return data.subdata(in: data.startIndex + offset ..< data.startIndex + end)
    }

    /// The offset of the next newline at or after `start`, or the end of the buffer.
    static func nextNewline(in raw: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = raw.baseAddress, start < raw.count,
            let found = memchr(base + start, 0x0A, raw.count - start)
        else {
            return raw.count
        }
        return UnsafeRawPointer(found) - base
    }

    mutating func run(progress: ((Double) -> Void)?) throws(JournalError) {
        let count = data.count
        var lines: [(offset: Int, end: Int)] = []
        lines.reserveCapacity(count / 64)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var start = 0
            var nextReport = 32 << 20
            while start < count {
                let end = Self.nextNewline(in: raw, from: start)
                lines.append((start, end))
                start = end + 1
                if let progress, start >= nextReport {
                    progress(Double(start) / Double(count))
                    nextReport += 32 << 20
                }
            }
        }
        let endsWithNewline = data.last == 0x0A
        try readHeader(lines.first!)
        var expectedSeq: Int?
        for (position, line) in lines.enumerated().dropFirst() {
            let lineNumber = position + 1
            let isLast = position == lines.count - 1
            guard line.end > line.offset else {
                throw .malformedLine(path: path, line: lineNumber, reason: "empty line")
            }
            let kind: (isTransaction: Bool, seq: Int)
            do {
                kind = try classify(line, lineNumber: lineNumber, verifyFully: isLast)
            } catch {
                if isLast && !endsWithNewline {
                    warnings.append(JournalWarning(path: path, line: lineNumber, message: "the last line is incomplete (the recording stopped mid-write); it was ignored"))
                    break
                }
                throw error
            }
            if kind.isTransaction {
                guard let expected = expectedSeq else {
                    throw .malformedLine(path: path, line: lineNumber, reason: "transaction before the first keyframe")
                }
                if kind.seq < expected {
                    throw .duplicateSequence(path: path, line: lineNumber, seq: kind.seq)
                }
                if kind.seq > expected {
                    throw .missingSequence(path: path, line: lineNumber, expected: expected, found: kind.seq)
                }
                transactionOffsets.append(line.offset)
                transactionLines.append(Int32(truncatingIfNeeded: lineNumber))
                lastStep = kind.seq
                expectedSeq = kind.seq + 1
            } else {
                if let expected = expectedSeq, kind.seq != expected - 1 {
                    throw .malformedLine(path: path, line: lineNumber, reason: "keyframe for step \(kind.seq) follows transaction \(expected - 1)")
                }
                if firstStep == nil {
                    firstStep = kind.seq
                    lastStep = kind.seq
                }
                keyframes.append((kind.seq, line.offset, lineNumber))
                expectedSeq = kind.seq + 1
            }
        }
        guard firstStep != nil else {
            throw .malformedLine(path: path, line: 2, reason: "no keyframe follows the header")
        }
        progress?(1)
    }

    private mutating func readHeader(_ line: (offset: Int, end: Int)) throws(JournalError) {
        let bytes = data.subdata(in: data.startIndex + line.offset ..< data.startIndex + line.end)
        let text = String(decoding: bytes.prefix(80), as: UTF8.self)
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            object["format"] as? String == JournalFormat.name
        else {
            throw .notAJournal(path: path, found: text)
        }
        guard let version = object["version"] as? Int else {
            throw .notAJournal(path: path, found: text)
        }
        guard version == JournalFormat.majorVersion else {
            throw .unsupportedVersion(path: path, version: version)
        }
        do {
            header = try JSONDecoder().decode(JournalHeader.self, from: bytes)
        } catch {
            throw .malformedLine(path: path, line: 1, reason: Self.describe(error))
        }
    }

    /// Whether a line is a transaction or a keyframe, and its step: read from the fixed prefix
    /// the recorder writes, or by decoding the line when it was written differently (or when
    /// `verifyFully`, for the last line, which may be torn).
    private func classify(_ line: (offset: Int, end: Int), lineNumber: Int, verifyFully: Bool) throws(JournalError) -> (isTransaction: Bool, seq: Int) {
        if !verifyFully, let sniffed = sniff(line) {
            return sniffed
        }
        let bytes = data.subdata(in: data.startIndex + line.offset ..< data.startIndex + line.end)
        struct Kind: Decodable {
            var type: String
            var seq: Int
        }
        let kind: Kind
        do {
            kind = try JSONDecoder().decode(Kind.self, from: bytes)
            if verifyFully {
                if kind.type == "tx" {
                    _ = try JSONDecoder().decode(TransactionRecord.self, from: bytes)
                } else {
                    _ = try JSONDecoder().decode(KeyframeRecord.self, from: bytes)
                }
            }
        } catch {
            if String(validating: bytes, as: UTF8.self) == nil {
                throw .notUTF8(path: path, line: lineNumber)
            }
            throw .malformedLine(path: path, line: lineNumber, reason: Self.describe(error))
        }
        switch kind.type {
        case "tx": return (true, kind.seq)
        case "keyframe": return (false, kind.seq)
        default: throw .malformedLine(path: path, line: lineNumber, reason: "unknown record type \(kind.type.debugDescription)")
        }
    }

    private func sniff(_ line: (offset: Int, end: Int)) -> (isTransaction: Bool, seq: Int)? {
        data.withUnsafeBytes { raw -> (Bool, Int)? in
            let bytes = raw.bindMemory(to: UInt8.self)
            func hasPrefix(_ prefix: [UInt8]) -> Bool {
                guard line.end - line.offset > prefix.count else { return false }
                for (index, byte) in prefix.enumerated() where bytes[line.offset + index] != byte {
                    return false
                }
                return true
            }
            let isTransaction: Bool
            let start: Int
            if hasPrefix(Self.transactionPrefix) {
                isTransaction = true
                start = line.offset + Self.transactionPrefix.count
            } else if hasPrefix(Self.keyframePrefix) {
                isTransaction = false
                start = line.offset + Self.keyframePrefix.count
            } else {
                return nil
            }
            var seq = 0
            var position = start
            while position < line.end, position - start < 18, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                seq = seq * 10 + Int(bytes[position] - 0x30)
                position += 1
            }
            guard position > start, position < line.end, bytes[position] == 0x2C || bytes[position] == 0x7D else {
                return nil
            }
            return (isTransaction, seq)
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
        default:
            return String(describing: error)
        }
    }
}
