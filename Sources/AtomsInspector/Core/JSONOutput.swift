import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes `--json` output: sorted keys, stable, and every number of the journal as its text.
///
/// `JSONEncoder` writes a number it holds as a `Double`, which loses digits and has none for
/// `1e400` (the whole output would fail). So each ``JSONNumber`` is encoded as a string
/// holding its text between two copies of a marker, and the marked strings are then replaced
/// by their text. The marker holds a random 64-bit nonce, so no string of a journal can
/// spell it by chance.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) -> String {
        encode(value, formatting: [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted])
    }

    /// One line of JSON (for streams: JSON Lines).
    static func encodeLine<T: Encodable>(_ value: T) -> String {
        encode(value, formatting: [.sortedKeys, .withoutEscapingSlashes])
    }

    private static let marker = "#exact-number-\(String(UInt64.random(in: .min ... .max), radix: 16))#"

    private static func encode<T: Encodable>(_ value: T, formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.userInfo[JSONNumber.exactTextMarker] = marker
        guard let data = try? encoder.encode(value) else { return "null" }
        return unmarkingNumbers(Array(data))
    }

    /// The JSON with each `"<marker><number text><marker>"` replaced by the number's text.
    static func unmarkingNumbers(_ json: [UInt8]) -> String {
        let open = Array("\"\(marker)".utf8)
        let close = Array("\(marker)\"".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(json.count)
        var index = 0
        while index < json.count {
            guard json[index] == UInt8(ascii: "\""), json[index...].starts(with: open) else {
                output.append(json[index])
                index += 1
                continue
            }
            let start = index + open.count
            var end = start
            while end < json.count, !json[end...].starts(with: close) { end += 1 }
            output.append(contentsOf: json[start..<end])
            index = end + close.count
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A value as JSON output shows it.
struct ValueJSON: Encodable {
    let atom: String
    let type: String
    let value: JSONValue?
    let dump: String?
    let phase: String?
    let redacted: Bool
    let restorable: Bool

    init(atom: AtomDeclaration, name: String, entry: ValueEntry) {
        self.atom = name
        type = atom.type
        value = entry.v
        dump = entry.dump
        phase = entry.phase
        redacted = entry.redacted == true
        restorable = entry.isRestorable
    }
}
