import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes `--json` output: sorted keys, stable.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// One line of JSON (for streams: JSON Lines).
    static func encodeLine<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
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
