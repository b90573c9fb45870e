import Atoms

/// A live value in the form the recorder writes it, as a ``ValueEntry`` a reader would read
/// back: what a replay compares with a recorded value.
///
/// Goes through the recorder's own ``ValueEncoder``, so the JSON, the dump of a value that is
/// not `Codable`, an asynchronous phase and a redacted atom come out exactly as recorded.
package struct RecordedForm {
    private let encoder = ValueEncoder()

    /// Creates an encoder; it caches what it learns of each type, so keep one per replay.
    package init() {}

    /// The entry (numbered 0) the recorder would write for `value`, the value of `atom`.
    package func entry(of value: Any, for atom: AtomIdentity) -> ValueEntry {
        let redacted = atom.atomType is any JournalRedacted.Type
        switch encoder.encode(value, redacted: redacted) {
        case .json(let bytes, _):
            // The recorder's JSON always parses; a dump stands in should it ever not.
            guard let json = try? JSONValue.parse(bytes) else {
                return ValueEntry(id: 0, dump: String(decoding: bytes, as: UTF8.self))
            }
            return ValueEntry(id: 0, v: json)
        case .fields(let fields):
            guard case .object(let members)? = try? JSONValue.parse(Array("{\(fields)}".utf8)) else {
                return ValueEntry(id: 0, dump: fields)
            }
            return ValueEntry(
                id: 0, v: members["v"], dump: members["dump"]?.stringValue, redacted: members["redacted"] == .bool(true) ? true : nil,
                phase: members["phase"]?.stringValue, norestore: members["norestore"] == .bool(true) ? true : nil,
                error: members["error"]?.stringValue
            )
        }
    }
}

private extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
