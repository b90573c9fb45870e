import Atoms
import CustomDump
import Foundation

/// Turns atom values into the JSON of a journal value entry.
///
/// `Codable` values are stored as JSON (restorable); ``AsyncPhase`` values record their phase
/// and, on success, the value; anything else is stored as a readable dump (swift-custom-dump),
/// marked not restorable.
struct ValueEncoder {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN"
        )
        return encoder
    }()

    /// The JSON object of a value entry for atom `id` (without the trailing newline).
    func entry(id: Int, value: Any, redacted: Bool) -> String {
        var line = JSONLine()
        line.field("id", id)
        if redacted {
            line.field("redacted", true)
            return line.finished()
        }
        if let phase = value as? any JournalPhaseRepresentable {
            line.field("phase", phase.phaseName)
            if let success = phase.successValue, let json = json(of: success) {
                line.raw("v", json)
                line.field("norestore", true)
            }
            line.field("dump", dump(value))
            return line.finished()
        }
        if let json = json(of: value) {
            line.raw("v", json)
        } else {
            line.field("dump", dump(value))
        }
        return line.finished()
    }

    /// Compact JSON of an `Encodable` value, or `nil`.
    func json(of value: Any) -> String? {
        switch value {
        case let value as Int: return String(value)
        case let value as Bool: return value ? "true" : "false"
        case let value as String: return JSONLine.quoted(value)
        default: break
        }
        guard let encodable = value as? any Encodable, let data = try? encoder.encode(encodable) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    private func dump(_ value: Any) -> String {
        var text = ""
        customDump(value, to: &text, maxDepth: 8)
        return text
    }
}

/// A value that reports an asynchronous phase: ``AsyncPhase``.
protocol JournalPhaseRepresentable {
    var phaseName: String { get }
    var successValue: Any? { get }
}

extension AsyncPhase: JournalPhaseRepresentable {
    var phaseName: String {
        switch self {
        case .suspending: "suspending"
        case .success: "success"
        case .failure: "failure"
        }
    }

    var successValue: Any? {
        value
    }
}
