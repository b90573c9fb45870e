/// Builds one compact JSON object, field by field, in the order fields are added.
///
/// The recorder writes lines with it rather than through `JSONEncoder`: values arrive as JSON
/// text already, and the fixed field order (`type`, then `seq` first) lets the reader index a
/// journal by looking at the start of each line only.
struct JSONLine {
    private var text = "{"
    /// Whether no field was added.
    private(set) var isEmpty = true

    private mutating func key(_ name: String) {
        if !isEmpty {
            text += ","
        }
        isEmpty = false
        text += "\"" + name + "\":"
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    mutating func field(_ name: String, _ value: Double) {
        key(name)
        text += value.isFinite ? String(value) : "null"
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    mutating func field(_ name: String, _ value: String) {
        key(name)
        text += Self.quoted(value)
    }

    /// A field whose value is already JSON text.
    mutating func raw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    /// A field holding an array of JSON texts; omitted when empty.
    mutating func array(_ name: String, _ elements: [String]) {
        guard !elements.isEmpty else { return }
        key(name)
        text += "[" + elements.joined(separator: ",") + "]"
    }

    func finished() -> String {
        text + "}"
    }

    /// The members written so far, without the braces.
    var members: String {
        String(text.dropFirst())
    }

    /// `value` as a JSON string literal.
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.appendJSONString(value)
        return String(decoding: bytes, as: UTF8.self)
    }
}
