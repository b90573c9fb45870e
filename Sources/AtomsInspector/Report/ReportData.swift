import AtomsJournalReader

/// What an HTML report embeds, in three blocks the page decodes (docs/REPORT.md):
///
/// - `meta`: one JSON object: atoms, write sites, locations, each transaction's time, site
///   and changed atoms (as columns of small numbers), graph changes, keyframe steps, and the
///   graphs `dot` drew.
/// - `values`: one line per transaction: its value entries, tab-separated, each a kind letter
///   and JSON: `v` a whole value, `d` a delta (object and array deltas only), `=` an equal
///   write, `t` a value shown as text (`["text","marks"]`).
/// - `keyframes`: one JSON line per keyframe: every live atom's value, the edges and the
///   subscriptions at that step.
///
/// Every `<` is written `\u003c` (it only occurs inside JSON strings), so no value can end
/// the script element that holds it.
struct ReportData {
    /// The meta JSON object.
    var meta: [UInt8]
    /// The transactions' value lines.
    var values: [UInt8]
    /// The keyframe lines.
    var keyframes: [UInt8]

    /// The bytes embedded.
    var count: Int { meta.count + values.count + keyframes.count }
}

extension Array where Element == UInt8 {
    /// Appends `value`'s JSON with `<` written `\u003c`.
    mutating func appendEmbeddedJSON(_ value: JSONValue) {
        var json: [UInt8] = []
        value.writeJSON(into: &json)
        appendEmbedded(json)
    }

    /// Appends a JSON string with `<` written `\u003c`.
    mutating func appendEmbeddedString(_ text: String) {
        var json: [UInt8] = []
        json.appendJSONString(text)
        appendEmbedded(json)
    }

    /// Appends JSON bytes with `<` written `\u003c`.
    mutating func appendEmbedded(_ json: [UInt8]) {
        guard json.contains(UInt8(ascii: "<")) else {
            append(contentsOf: json)
            return
        }
        for byte in json {
            if byte == UInt8(ascii: "<") {
                append(contentsOf: Array(#"\u003c"#.utf8))
            } else {
                append(byte)
            }
        }
    }

    /// Appends `items` as a JSON array, each written by `write`.
    mutating func appendArray<Items: Sequence>(_ items: Items, _ write: (inout [UInt8], Items.Element) -> Void) {
        append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            write(&self, item)
        }
        append(UInt8(ascii: "]"))
    }
}
