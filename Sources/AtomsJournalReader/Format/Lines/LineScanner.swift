#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one reader of journal lines: every part of the library that reads a journal (opening,
/// seeking, following, summing up, every command) goes through it, at the depth it needs:
///
/// - ``kind(of:in:verify:)``, the envelope: what the line is and its step, read from the
///   fixed prefix the writer emits when it can be, otherwise by parsing the line whole;
/// - ``transaction(in:_:locations:decoding:)`` and ``keyframe(in:_:decoding:)``, with the
///   values of the atoms a caller names (all, some or none);
/// - ``location(in:_:)``, ``end(in:_:)`` and ``header(in:_:path:)``.
///
/// What counts as a malformed line is decided here, by version: a reader that meets a line
/// this scanner rejects reports it with ``JournalError/line(_:path:bytes:number:)``.
package struct LineScanner {
    /// The journal's major version (its header's `version`).
    let version: Int

    private static let typeMember = Array(#"{"type":""#.utf8)
    private static let keyframePrefix = Array(#"{"type":"keyframe","seq":"#.utf8)
    private static let locationPrefix = Array(#"{"type":"loc","#.utf8)
    private static let endPrefix = Array(#"{"type":"end","seq":"#.utf8)

    /// What the line `range` of `raw` holds.
    ///
    /// - Parameter verify: Parse the line whole even when its prefix tells what it is (for
    ///   the last lines of a file, which a crash may have cut short).
    /// - Throws: What is malformed: a line that is not JSON, not of a kind this version has,
    ///   or whose step is out of range.
    func kind(of range: Range<Int>, in raw: UnsafeRawBufferPointer, verify: Bool = false) throws -> LineKind {
        guard !range.isEmpty else {
            throw JSONScanner.SyntaxError(offset: range.lowerBound, message: "empty line")
        }
        let kind: LineKind
        if !verify, let sniffed = sniff(range, in: raw) {
            kind = sniffed
        } else {
            kind = try parsedKind(of: range, in: raw, verify: verify)
        }
        if let step = kind.step, !JournalFormat.stepRange.contains(step) {
            throw Problem("step \(step) is out of range (steps are 0…\(JournalFormat.stepRange.upperBound))")
        }
        return kind
    }

    /// Whether the line `range` of `raw` is a packed timing line (4.3), from its first byte:
    /// what an in-order reader that does not read timing checks first, to pass such a line by
    /// for what finding its end costs. (``kind(of:in:verify:)`` says `.timing` for it too.)
    @inline(__always)
    func isPackedTiming(_ range: Range<Int>, in raw: UnsafeRawBufferPointer) -> Bool {
        version >= 4 && !range.isEmpty && raw[range.lowerBound] == UInt8(ascii: "\"")
    }

    /// The kind from the prefix a recorder writes; `nil` when the line was written otherwise
    /// (it is then parsed, to say what is wrong or to read it in another member order).
    private func sniff(_ range: Range<Int>, in raw: UnsafeRawBufferPointer) -> LineKind? {
        func hasPrefix(_ prefix: [UInt8]) -> Bool {
            raw.hasPrefix(prefix, in: range)
        }
        func number(after prefix: [UInt8]) -> Int? {
            Self.step(in: raw, from: range.lowerBound + prefix.count, lineEnd: range.upperBound)
        }
        // Format 1 is read whole: its transactions are objects a prefix cannot vouch for (a
        // member may repeat, and the last one is what decoding keeps).
        guard version >= 2 else { return nil }
        let first = raw[range.lowerBound]
        let last = raw[range.upperBound - 1]
        if first == UInt8(ascii: "[") {
            // A transaction must end its array; anything else is parsed to say what is wrong.
            guard last == UInt8(ascii: "]") else { return nil }
            return Self.step(in: raw, from: range.lowerBound + 1, lineEnd: range.upperBound).map { .transaction(seq: $0) }
        }
        if version >= 4, first == UInt8(ascii: "\"") {
            // A packed timing line (4.3), known by its first byte: only readers of timing
            // read on.
            return .timing
        }
        guard first == UInt8(ascii: "{"), last == UInt8(ascii: "}"), hasPrefix(Self.typeMember) else { return nil }
        // One comparison of `{"type":"`, then the type's first letter picks the one prefix to
        // compare: a journal's most common object line (timing) costs two.
        switch raw[range.lowerBound + Self.typeMember.count] {
        case UInt8(ascii: "t"):
            // Timing lines (4.2's compact ones, 4.1's), known by their prefix alone: a reader
            // that does not use timing skips one for what finding its end costs.
            if version >= 4, CompactTimingLine.isLine(raw, range) || TimingLine.isTimingLine(raw, range) {
                return .timing
            }
        case UInt8(ascii: "k") where hasPrefix(Self.keyframePrefix):
            return number(after: Self.keyframePrefix).map { .keyframe(seq: $0) }
        // Location lines are parsed when they are needed; here the prefix is enough.
        case UInt8(ascii: "l") where version >= 2 && hasPrefix(Self.locationPrefix):
            return .location
        case UInt8(ascii: "e") where version >= 4 && hasPrefix(Self.endPrefix):
            return number(after: Self.endPrefix).map { .end(seq: $0) }
        default:
            break
        }
        return nil
    }

    /// The kind, from parsing the line.
    private func parsedKind(of range: Range<Int>, in raw: UnsafeRawBufferPointer, verify: Bool) throws -> LineKind {
        if version >= 2, raw[range.lowerBound] == UInt8(ascii: "[") {
            return .transaction(seq: try TransactionLine(bytes: raw, range: range, version: version).seq)
        }
        if version >= 4, PackedTimingLine.isLine(raw, range) {
            // Its numbers mean something only after the segment's timing lines before it:
            // here, a whole string of digits (a line cut short has no closing `"`).
            try PackedTimingLine.checkDigits(raw, range)
            return .timing
        }
        let object = try TypedObject(raw, range)
        switch object.type {
        case "tx" where version == 1:
            if verify {
                _ = try JSONDecoder().decode(TransactionRecord.self, from: Data(UnsafeRawBufferPointer(rebasing: raw[range])))
            }
            return .transaction(seq: try object.requiredSeq())
        case "keyframe":
            if verify {
                _ = try KeyframeLine(bytes: raw, range: range, decoding: { _ in false })
            }
            return .keyframe(seq: try object.requiredSeq())
        case "loc" where version >= 2:
            _ = try location(in: raw, range)
            return .location
        case "end" where version >= 4:
            _ = try end(in: raw, range)
            return .end(seq: try object.requiredSeq())
        default:
            // From version 4 on, later minor versions may add line types: readers skip them.
            guard version >= 4 else {
                throw JSONScanner.SyntaxError(offset: range.lowerBound, message: "unknown record type \(object.type.debugDescription)")
            }
            return .unknown
        }
    }

    /// A line that is valid JSON but breaks a rule of the format.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Reading lines

    /// A transaction's envelope: its step, time, cause and the atoms it wrote (location
    /// numbers are not resolved, values not decoded).
    /// `locations` are the location numbers it refers to, in the order they are resolved
    /// (``TransactionLine/locationReferences``: the write site, the subscriptions', then the
    /// declared types'; none
    /// in format 1, which writes them inline). `declared` are the atoms it declares, and
    /// `referred` those it refers to, in the order reading its state checks them
    /// (``TransactionRecord/atomReferences``).
    func transactionEnvelope(
        in raw: UnsafeRawBufferPointer, _ range: Range<Int>
    ) throws -> (seq: Int, t: Double, cause: String, atoms: [Int], equal: [Int], locations: [Int], declared: [Int], referred: [Int]) {
        guard version >= 2 else {
            // Format 1 has no equal writes.
            let record = try transaction(in: raw, range, locations: [:], decoding: { _ in false })
            return (record.seq, record.t, record.cause, (record.values ?? []).map(\.id), [], [], (record.declare ?? []).map(\.id), record.atomReferences)
        }
        let line = try TransactionLine(bytes: raw, range: range, version: version)
        let equal = line.values.compactMap { value -> Int? in
            if case .unchanged = value.kind { return value.id }
            return nil
        }
        return (line.seq, line.t, line.cause, line.values.map(\.id), equal, line.locationReferences, line.declaredAtoms, line.atomReferences)
    }

    /// A transaction line as a format 1 record, with its location looked up in `locations`;
    /// only the values of atoms `decoding` accepts are decoded, the others carry only their
    /// `id` (and `unchanged` for an equal write).
    func transaction(in raw: UnsafeRawBufferPointer, _ range: Range<Int>, locations: [Int: String], decoding: (Int) -> Bool) throws -> TransactionRecord {
        guard version >= 2 else {
            let object = try ObjectLine(bytes: raw, range: range, decoding: decoding)
            var record = try JSONDecoder().decode(TransactionRecord.self, from: Data(object.envelope))
            if let values = object.values {
                record.values = values + object.undecoded.map { ValueEntry(id: $0) }
            }
            return record
        }
        return try TransactionLine(bytes: raw, range: range, version: version).record(bytes: raw, locations: locations, decoding: decoding)
    }

    /// ``transaction(in:_:locations:decoding:)``, keeping the deltas of the atoms `keep`
    /// accepts as bytes in `kept` (see ``TransactionLine/record(bytes:locations:decoding:keepingDeltaBytesOf:into:)``);
    /// a line of format 1 keeps none.
    func transaction(
        in raw: UnsafeRawBufferPointer, _ range: Range<Int>, locations: [Int: String], decoding: (Int) -> Bool, keepingDeltaBytesOf keep: (Int) -> Bool,
        into kept: inout RecordedDeltaBytes
    ) throws -> TransactionRecord {
        guard version >= 2 else { return try transaction(in: raw, range, locations: locations, decoding: decoding) }
        return try TransactionLine(bytes: raw, range: range, version: version)
            .record(bytes: raw, locations: locations, decoding: decoding, keepingDeltaBytesOf: keep, into: &kept)
    }

    /// A keyframe line, with the values of the atoms `decoding` accepts.
    func keyframe(in raw: UnsafeRawBufferPointer, _ range: Range<Int>, decoding: (Int) -> Bool) throws -> KeyframeLine {
        try KeyframeLine(bytes: raw, range: range, decoding: decoding)
    }

    /// A location line.
    func location(in raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> LocationRecord {
        var scanner = JSONScanner(raw, range: range)
        var type: String?, id: Int?, at: String?
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            switch key {
            case "type": type = try scanner.string()
            case "id": id = try scanner.integer()
            case "at": at = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        let what = "a location line"
        return LocationRecord(type: try scanner.required(type, "type", in: what), id: try scanner.required(id, "id", in: what), at: try scanner.required(at, "at", in: what))
    }

    /// An end line.
    func end(in raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> EndRecord {
        var scanner = JSONScanner(raw, range: range)
        var type: String?, seq: Int?, t: Double?, waits: Int?
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            switch key {
            case "type": type = try scanner.string()
            case "seq": seq = try scanner.integer()
            case "t": t = try scanner.double()
            case "waits": waits = try scanner.integer()
            default: try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        let what = "the end line"
        return EndRecord(type: try scanner.required(type, "type", in: what), seq: try scanner.required(seq, "seq", in: what), t: try scanner.required(t, "t", in: what), waits: waits)
    }

    /// The longest header line read: a real one is about 200 bytes; a longer first line is
    /// not parsed, so a large file of something else is rejected at once.
    static let maximumHeaderLength = 64 << 10

    /// What line 1 must say before it is decoded as a header: the format's name and version.
    private struct HeaderProbe: Decodable {
        var format: String?
        var version: Int?
    }

    /// The header: the first line of a journal, which must be one.
    ///
    /// - Throws: ``JournalError/notAJournal(path:found:)``,
    ///   ``JournalError/unsupportedVersion(path:version:)`` or a malformed line 1.
    static func header(in raw: UnsafeRawBufferPointer, _ range: Range<Int>, path: String) throws(JournalError) -> JournalHeader {
        let shown = UnsafeRawBufferPointer(rebasing: raw[range.lowerBound..<min(range.upperBound, range.lowerBound + 80)])
        let found = String(decoding: shown, as: UTF8.self)
        guard shown.first == UInt8(ascii: "{"), range.count <= maximumHeaderLength else {
            throw .notAJournal(path: path, found: found)
        }
        let bytes = Data(UnsafeRawBufferPointer(rebasing: raw[range]))
        guard let probe = try? JSONDecoder().decode(HeaderProbe.self, from: bytes),
            probe.format == JournalFormat.name, let version = probe.version
        else {
            throw .notAJournal(path: path, found: found)
        }
        guard JournalFormat.readableMajorVersions.contains(version) else {
            throw .unsupportedVersion(path: path, version: version)
        }
        do {
            return try JSONDecoder().decode(JournalHeader.self, from: bytes)
        } catch {
            throw .malformedLine(path: path, line: 1, reason: describe(error, lineStart: range.lowerBound))
        }
    }

    // MARK: Parts

    /// The step written at `start` (up to 18 digits followed by `,` or `}`), or `nil`.
    static func step(in raw: UnsafeRawBufferPointer, from start: Int, lineEnd: Int) -> Int? {
        var value = 0
        var position = start
        while position < lineEnd, position - start < 18, raw[position] >= 0x30, raw[position] <= 0x39 {
            value = value * 10 + Int(raw[position] - 0x30)
            position += 1
        }
        guard position > start, position < lineEnd, raw[position] == 0x2C || raw[position] == 0x7D else {
            return nil
        }
        return value
    }

    /// The `type` and `seq` of an object line, in any member order.
    private struct TypedObject {
        var type: String
        var seq: Int?

        init(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws {
            var scanner = JSONScanner(raw, range: range)
            var type: String?
            var seq: Int?
            guard scanner.peek() == UInt8(ascii: "{") else {
                throw scanner.error("a line is a JSON object or array")
            }
            // A repeated `type` or `seq` is damage: readers would disagree on which one counts.
            try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
                switch key {
                case "type":
                    guard type == nil else { throw scanner.error("member \"type\" appears twice") }
                    type = try scanner.string()
                case "seq":
                    guard seq == nil else { throw scanner.error("member \"seq\" appears twice") }
                    seq = try scanner.integer()
                default: try scanner.skipValue()
                }
            }
            try scanner.expectEnd()
            self.type = try scanner.required(type, "type", in: "a line")
            self.seq = seq
        }

        /// `seq`, which must be there.
        func requiredSeq() throws -> Int {
            guard let seq else {
                throw JSONScanner.SyntaxError(offset: 0, message: "missing field \"seq\"")
            }
            return seq
        }
    }

    /// A short description of what is wrong with a line; byte offsets are counted from the
    /// line's start.
    package static func describe(_ error: any Error, lineStart: Int) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, _):
            return "missing field \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field \"\(field)\" has the wrong type"
        case let error as JSONScanner.SyntaxError:
            return JSONScanner.SyntaxError(offset: max(0, error.offset - lineStart), message: error.message).description
        default:
            return String(describing: error)
        }
    }
}

extension JournalError {
    /// The error for a line a ``LineScanner`` rejected: the error itself when it is already
    /// a ``JournalError``, otherwise a malformed (or not UTF-8) line `number` of `path`.
    static func line(_ error: any Error, path: String, bytes: UnsafeRawBufferPointer, range: Range<Int>, number: Int) -> JournalError {
        if let error = error as? JournalError {
            return error
        }
        if String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) == nil {
            return .notUTF8(path: path, line: number)
        }
        return .malformedLine(path: path, line: number, reason: LineScanner.describe(error, lineStart: range.lowerBound))
    }
}
