import Atoms
import CustomDump
import Foundation

/// An atom's value as the recorder keeps it: JSON for `Codable` values, or a ready value entry
/// for everything else.
enum EncodedValue: Sendable {
    /// The JSON of an `Encodable` value (restorable), with its members when it is an object.
    case json(bytes: [UInt8], members: [CompactJSONEncoder.Member]?)
    /// The fields of a keyed value entry after its `id` (`"dump":…`): a dump, an asynchronous
    /// phase, or a redacted value.
    case fields(String)

    /// Whether the two are written the same (the same JSON, or the same fields) and so are
    /// known to be equal: two redacted values are written the same whatever they hold.
    func isSameEncoding(as other: EncodedValue) -> Bool {
        switch (self, other) {
        case (.json(let bytes, _), .json(let otherBytes, _)): bytes == otherBytes
        case (.fields(let text), .fields(let otherText)): text == otherText && text != ValueEncoder.redactedFields
        default: false
        }
    }

    /// The keyed entry `{"id":N,…}`, as keyframes hold every value.
    func keyedEntry(id: Int) -> String {
        switch self {
        case .json(let bytes, _): "{\"id\":\(id),\"v\":" + String(decoding: bytes, as: UTF8.self) + "}"
        case .fields(let text): "{\"id\":\(id)," + text + "}"
        }
    }
}

/// Turns atom values into what the journal records.
///
/// `Codable` values are stored as JSON (restorable); ``AsyncPhase`` values record their phase
/// and, on success, the value; anything else is stored as a readable dump (swift-custom-dump),
/// marked not restorable.
struct ValueEncoder: @unchecked Sendable {
    // Unchecked: `kinds` is a cache, and each owner (the recorder on the main actor, the line
    // builder on its thread) has its own encoder, used from one thread.

    /// What kind of value a type holds, decided once per type (dynamic casts to protocols are
    /// costly).
    private enum Kind {
        case phase, other
        /// The value's own type, kept so that encoding opens it without a cast to a protocol.
        case encodable(any Encodable.Type)
    }

    private final class KindCache {
        var kinds: [ObjectIdentifier: Kind] = [:]
        /// The type looked up last: an atom's values come one after another.
        var last: (type: ObjectIdentifier, kind: Kind)?
    }

    private let compact = CompactJSONEncoder()
    private let cache = KindCache()
    private let fallback: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN"
        )
        return encoder
    }()

    /// The recorded form of a value.
    /// The fields of a redacted value's entry.
    static let redactedFields = "\"redacted\":true"

    func encode(_ value: Any, redacted: Bool) -> EncodedValue {
        if redacted {
            return .fields(Self.redactedFields)
        }
        let kind = kind(of: value)
        if case .phase = kind, let phase = value as? any JournalPhaseRepresentable {
            var line = JSONLine()
            line.field("phase", phase.phaseName)
            if let success = phase.successValue, let json = json(of: success) {
                line.raw("v", String(decoding: json.bytes, as: UTF8.self))
                line.field("norestore", true)
            }
            // What the error says of itself: a replay's recorded failure says the same.
            if let description = phase.failureDescription {
                line.field("error", description)
            }
            line.field("dump", dump(value))
            return .fields(line.members)
        }
        if case .encodable = kind, let json = json(of: value) {
            return .json(bytes: json.bytes, members: json.members)
        }
        var line = JSONLine()
        line.field("dump", dump(value))
        return .fields(line.members)
    }

    /// Compact JSON of an `Encodable` value, or `nil` when it is not one or fails to encode.
    func json(of value: Any) -> CompactJSONEncoder.Output? {
        if case .encodable(let type) = kind(of: value), let json = json(of: value, as: type) {
            return json
        }
        // Not a known type, or a value whose static type says little (an `Optional<Any>`
        // holds values of any type): ask the value itself.
        guard let encodable = value as? any Encodable else {
            return nil
        }
        let type: any Encodable.Type = Swift.type(of: encodable)
        return json(of: value, as: type)
    }

    /// Encodes a value whose dynamic type is `type`: the cast to its own type is cheap, where
    /// `as? any Encodable` looks the conformance up every time.
    private func json<T: Encodable>(of value: Any, as type: T.Type) -> CompactJSONEncoder.Output? {
        // A forced cast once the types are known to match: a conditional one builds `T?`,
        // whose metadata an unspecialized generic function looks up on every call.
        guard Swift.type(of: value) == T.self || value is T else {
            return nil
        }
        return json(typed: value as! T)
    }

    /// Keeps a recorded value's storage for the next encoding (see
    /// ``CompactJSONEncoder/recycle(bytes:members:)``): for a value that nothing refers to any
    /// more, replaced in the recorder's mirror.
    func recycle(_ value: consuming EncodedValue) {
        switch consume value {
        case .json(var bytes, var members):
            compact.recycle(bytes: &bytes, members: &members)
        case .fields:
            break
        }
    }

    /// The recorded form of an `Encodable` value of a known type that is not a phase, as
    /// ``encode(_:redacted:)`` gives it, without boxing it.
    func encode<T: Encodable>(encodable value: T) -> EncodedValue {
        if let json = json(typed: value) {
            return .json(bytes: json.bytes, members: json.members)
        }
        var line = JSONLine()
        line.field("dump", dump(value))
        return .fields(line.members)
    }

    private func json<T: Encodable>(typed value: T) -> CompactJSONEncoder.Output? {
        do {
            return try compact.encode(value)
        } catch is CompactJSONEncoder.Unsupported {
            guard let data = try? fallback.encode(value) else { return nil }
            return CompactJSONEncoder.Output(bytes: Array(data), members: nil)
        } catch {
            return nil
        }
    }

    private func kind(of value: Any) -> Kind {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let last = cache.last, last.type == type {
            return last.kind
        }
        if let known = cache.kinds[type] {
            cache.last = (type, known)
            return known
        }
        let kind: Kind =
            if value is any JournalPhaseRepresentable { .phase }
            else if let encodable = value as? any Encodable { .encodable(Swift.type(of: encodable)) }
            else { .other }
        cache.kinds[type] = kind
        return kind
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
    /// A failure's `String(describing:)` of its error; `nil` for other phases.
    var failureDescription: String? { get }
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

    var failureDescription: String? {
        error.map { String(describing: $0) }
    }
}
