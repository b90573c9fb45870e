import Foundation

/// A keyframe line read with ``JSONScanner``: the declarations and the graph are decoded, and
/// of the values only those a caller asks for; the others are only noted as live.
struct KeyframeLine {
    var record: KeyframeRecord
    /// Live atoms whose values were not decoded.
    var undecoded: [Int]

    /// The parts of a keyframe besides its values, decoded with `JSONDecoder`.
    private struct Envelope: Decodable {
        var type: String
        var seq: Int
        var atoms: [AtomDeclaration]
        var edges: [EdgeEntry]
        var subs: [SubscriptionEntry]
    }

    /// Scans a keyframe line, decoding the values of the atoms `decoding` accepts.
    ///
    /// - Throws: A description of what is malformed.
    init(bytes: UnsafeRawBufferPointer, range: Range<Int>, decoding: (Int) -> Bool) throws {
        var scanner = JSONScanner(bytes, range: range)
        var values: [ValueEntry] = []
        var undecoded: [Int] = []
        var sawValues = false
        // Everything but `values` is copied into an object decoded on its own.
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
            sawValues = true
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
                    values.append(try ValueEntry(json: json))
                } catch let error as JSONScanner.SyntaxError {
                    throw JSONScanner.SyntaxError(offset: start, message: error.message)
                } catch {
                    throw scanner.error("a bad value entry")
                }
            }
        }
        try scanner.expectEnd()
        guard sawValues else {
            throw JSONScanner.SyntaxError(offset: range.lowerBound, message: "a keyframe has no values")
        }
        envelope.append(UInt8(ascii: "}"))
        let decoded = try JSONDecoder().decode(Envelope.self, from: Data(envelope))
        record = KeyframeRecord(type: decoded.type, seq: decoded.seq, atoms: decoded.atoms, values: values, edges: decoded.edges, subs: decoded.subs)
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
