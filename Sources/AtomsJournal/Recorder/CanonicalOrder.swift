/// The canonical order of JSON text (``JSONValue/canonicallyPrecedes(_:_:)``), for the lists
/// the recorder writes.
enum CanonicalOrder {
    /// Object keys: by their UTF-8 bytes.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        JSONValue.canonicallyPrecedes(.string(lhs), .string(rhs))
    }

    /// Encoded values sorted canonically; `nil` when one failed to encode.
    static func sortedJSON(_ values: [[UInt8]?]) -> [[UInt8]]? {
        var parsed: [(json: [UInt8], value: JSONValue)] = []
        for json in values {
            guard let json, let value = try? JSONValue.parse(json) else { return nil }
            parsed.append((json, value))
        }
        return parsed.sorted { JSONValue.canonicallyPrecedes($0.value, $1.value) }.map(\.json)
    }
}
