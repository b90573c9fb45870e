/// Builds one compact JSON object, field by field, in the order fields are added.
///
/// The recorder writes lines with it rather than through `JSONEncoder`: values arrive as JSON
/// text already, and the fixed field order (`type`, then `seq` first) lets the reader index a
/// journal by looking at the start of each line only.
package struct JSONLine {
    private var text = "{"
    /// Whether no field was added.
    private(set) var isEmpty = true

    /// An object with no fields yet.
    package init() {}

    private mutating func key(_ name: String) {
        if !isEmpty {
            text += ","
        }
        isEmpty = false
        text += "\"" + name + "\":"
    }

    package mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    mutating func field(_ name: String, _ value: Double) {
        key(name)
        text += value.isFinite ? String(value) : "null"
    }

    package mutating func field(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    package mutating func field(_ name: String, _ value: String) {
        key(name)
        text += Self.quoted(value)
    }

    /// A field whose value is already JSON text.
    package mutating func raw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    /// A field holding an array of JSON texts; omitted when empty.
    mutating func array(_ name: String, _ elements: [String]) {
        guard !elements.isEmpty else { return }
        key(name)
        text += "[" + elements.joined(separator: ",") + "]"
    }

    package func finished() -> String {
        text + "}"
    }

    /// The members written so far, without the braces.
    package var members: String {
        String(text.dropFirst())
    }

    /// `value` as a JSON string literal.
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.appendJSONString(value)
        return String(decoding: bytes, as: UTF8.self)
    }
}
