#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any JSON value, as read from a journal line. Numbers keep their text (``JSONNumber``), so
/// they print and restore exactly.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value, keeping numbers exactly as written.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(JSONNumber.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it was read from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON text with sorted keys and numbers as recorded: the same value always
    /// prints the same.
    public var jsonText: String {
        var bytes: [UInt8] = []
        writeJSON(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func writeJSON(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): bytes.append(contentsOf: value.text.utf8)
        case .string(let value): bytes.appendJSONString(value)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.writeJSON(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.appendJSONString(key)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.writeJSON(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Indented JSON text with sorted keys (two spaces per level; empty containers as `[]`
    /// and `{}`), for display and line diffs.
    public var prettyText: String {
        var text = ""
        writePretty(into: &text, indent: "")
        return text
    }

    private func writePretty(into text: inout String, indent: String) {
        switch self {
        case .array(let values) where !values.isEmpty:
            text += "[\n"
            for (index, value) in values.enumerated() {
                text += indent + "  "
                value.writePretty(into: &text, indent: indent + "  ")
                text += index == values.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let fields) where !fields.isEmpty:
            text += "{\n"
            let keys = fields.keys.sorted()
            for (index, key) in keys.enumerated() {
                text += indent + "  " + JSONValue.string(key).jsonText + ": "
                fields[key]!.writePretty(into: &text, indent: indent + "  ")
                text += index == keys.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        case .array:
            text += "[]"
        case .object:
            text += "{}"
        case .number(let value):
            text += value.text
        default:
            text += jsonText
        }
    }
}
