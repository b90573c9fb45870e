#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A keyframe line read with ``JSONScanner``: the declarations and the graph are decoded, and
/// of the values only those a caller asks for; the others are only noted as live.
package struct KeyframeLine {
    var record: KeyframeRecord
    /// Live atoms whose values were not decoded.
    var undecoded: [Int]

    /// Scans a keyframe line, decoding the values of the atoms `decoding` accepts.
    ///
    /// - Throws: A description of what is malformed.
    init(bytes: UnsafeRawBufferPointer, range: Range<Int>, decoding: (Int) -> Bool) throws {
        let line = try ObjectLine(bytes: bytes, range: range, decoding: decoding)
        guard let values = line.values else {
            throw JSONScanner.SyntaxError(offset: range.lowerBound, message: "a keyframe has no values")
        }
        record = try line.envelope.withUnsafeBytes { envelope throws(JSONScanner.SyntaxError) in
            try Self.record(envelope: envelope, values: values)
        }
        undecoded = line.undecoded
    }

    /// The keyframe's members besides its values, read from the envelope ``ObjectLine`` made.
    private static func record(envelope: UnsafeRawBufferPointer, values: [ValueEntry]) throws(JSONScanner.SyntaxError) -> KeyframeRecord {
        var scanner = JSONScanner(envelope, range: 0..<envelope.count)
        var type: String?, seq: Int?
        var atoms: [AtomDeclaration]?, edges: [EdgeEntry]?, subs: [SubscriptionEntry]?
        var locs: [LocationDeclaration]?
        // A repeated member is damage: a reader that takes the line's step from its prefix
        // (the first `seq`) and one that reads it whole would disagree.
        var seen: Set<String> = []
        try scanner.forEachMember { name, scanner throws(JSONScanner.SyntaxError) in
            guard seen.insert(name).inserted else { throw scanner.error("member \"\(name)\" appears twice") }
            switch name {
            case "type": type = try scanner.string()
            case "seq": seq = try scanner.integer()
            case "atoms": atoms = try scanner.array { scanner throws(JSONScanner.SyntaxError) in try scanner.atomDeclaration() }
            case "edges": edges = try scanner.array { scanner throws(JSONScanner.SyntaxError) in try scanner.edgeEntry() }
            case "subs": subs = try scanner.array { scanner throws(JSONScanner.SyntaxError) in try scanner.subscriptionEntry() }
            case "locs": locs = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.locationDeclaration() }
            default: try scanner.skipValue()
            }
        }
        let what = "a keyframe"
        return KeyframeRecord(
            type: try scanner.required(type, "type", in: what), seq: try scanner.required(seq, "seq", in: what),
            atoms: try scanner.required(atoms, "atoms", in: what), values: values,
            edges: try scanner.required(edges, "edges", in: what), subs: try scanner.required(subs, "subs", in: what), locs: locs
        )
    }
}

/// An object line (a keyframe, or a version-1 transaction) split in two: its `values` member,
/// read with ``JSONScanner`` (values may nest deeply, and `JSONDecoder` takes time that grows
/// with the cube of the depth), and everything else, copied into an object (read with
/// ``JSONScanner`` for a keyframe, with `JSONDecoder` for a version-1 transaction).
struct ObjectLine {
    /// The line's other members, as a JSON object.
    var envelope: [UInt8]
    /// The value entries (`nil` when the line has no `values` member).
    var values: [ValueEntry]?
    /// Live atoms whose values were not decoded.
    var undecoded: [Int]

    /// Scans an object line, decoding the values of the atoms `decoding` accepts.
    ///
    /// - Throws: A description of what is malformed.
    init(bytes: UnsafeRawBufferPointer, range: Range<Int>, decoding: (Int) -> Bool) throws {
        var scanner = JSONScanner(bytes, range: range)
        var values: [ValueEntry]?
        var undecoded: [Int] = []
        var envelope: [UInt8] = [UInt8(ascii: "{")]
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            guard key == "values" else {
                let member = try scanner.skipValue()
                if envelope.count > 1 { envelope.append(UInt8(ascii: ",")) }
                envelope.appendJSONString(key)
                envelope.append(UInt8(ascii: ":"))
                envelope.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[member]))
                return
            }
            guard values == nil else { throw scanner.error("member \"values\" appears twice") }
            var entries: [ValueEntry] = []
            try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                let start = scanner.position
                let id = try Self.leadingID(&scanner)
                if let id, !decoding(id) {
                    try scanner.skipValue()
                    undecoded.append(id)
                    return
                }
                scanner.position = start
                let json = try scanner.value()
                do {
                    entries.append(try ValueEntry(json: json))
                } catch let error as JSONScanner.SyntaxError {
                    throw JSONScanner.SyntaxError(offset: start, message: error.message)
                } catch {
                    throw scanner.error("a bad value entry")
                }
            }
            values = entries
        }
        try scanner.expectEnd()
        envelope.append(UInt8(ascii: "}"))
        self.envelope = envelope
        self.values = values
        self.undecoded = undecoded
    }

    /// The `id` of a value entry when it is the entry's first member (as the recorder writes
    /// it); the scanner is then positioned after it. `nil` otherwise.
    private static func leadingID(_ scanner: inout JSONScanner) throws(JSONScanner.SyntaxError) -> Int? {
        let start = scanner.position
        guard scanner.consume(UInt8(ascii: "{")), scanner.peek() == UInt8(ascii: "\"") else {
            scanner.position = start
            return nil
        }
        guard (try? scanner.string()) == "id", scanner.consume(UInt8(ascii: ":")), let id = try? scanner.integer() else {
            scanner.position = start
            return nil
        }
        // Skip the rest of the entry from the start, now that its id is known.
        scanner.position = start
        return id
    }
}

extension KeyframeLine {
    /// The `locs` of a keyframe line, skipping its other members (values are not parsed).
    static func locations(in raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> [LocationDeclaration] {
        var scanner = JSONScanner(raw, range: range)
        var locations: [LocationDeclaration] = []
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            guard key == "locs" else {
                try scanner.skipValue()
                return
            }
            locations = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.locationDeclaration() } ?? []
        }
        return locations
    }

    /// The numbers of the atoms a keyframe line declares, read as reading a state from it
    /// reads them (``JournalReader/state(at:decodingValuesOf:)``: the line whole, its
    /// references checked); `nil` when no state reads from it. The readers that check atom
    /// numbers without a state (the summary, `log`'s listing) check none then: every command
    /// reads that state, and names the keyframe.
    static func declaredAtoms(in raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> [Int]? {
        guard let line = try? KeyframeLine(bytes: raw, range: range, decoding: { _ in false }) else { return nil }
        return line.checkedAtoms
    }

    /// The first keyframe's atoms (``declaredAtoms(in:_:)``) and, when `withLocations`, its
    /// locations (``locations(in:_:)``), from one reading of the line when it reads whole.
    ///
    /// - Throws: What ``locations(in:_:)`` throws, only when `withLocations`.
    static func declarations(in raw: UnsafeRawBufferPointer, _ range: Range<Int>, withLocations: Bool) throws -> (atoms: [Int]?, locations: [LocationDeclaration]) {
        guard let line = try? KeyframeLine(bytes: raw, range: range, decoding: { _ in false }) else {
            return (nil, withLocations ? try locations(in: raw, range) : [])
        }
        // A line that reads whole has its `locs` once: they are what `locations` would find.
        return (line.checkedAtoms, withLocations ? line.record.locs ?? [] : [])
    }

    /// The atoms of a keyframe read whole, `nil` when a state read from it fails its checks.
    private var checkedAtoms: [Int]? {
        let state = JournalState(keyframe: record, undecoded: undecoded)
        guard (try? state.checkReferences()) != nil else { return nil }
        return record.atoms.map(\.id)
    }
}
