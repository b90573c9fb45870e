/// Writes a ``JournalRecordable`` value's JSON as the journal records it.
///
/// The `@JournalRecordable` macro writes the calls: ``beginObject()``, then
/// ``member(_:_:)-(_,T)`` for each stored property in declaration order, then ``endObject()``.
/// Numbers, strings and booleans are written directly; a member that is itself
/// `JournalRecordable` writes its own members into the same bytes; any other `Encodable`
/// member is encoded as the recorder encodes values, so the bytes are those of the type's
/// synthesized `encode(to:)`.
///
/// Not for you to call or name: it is public only because the macro's expansion, compiled in
/// your module, reaches it, and its leading underscore says so. Its members may change with
/// any release.
public struct _JournalJSONWriter {
    /// The JSON written so far.
    private(set) var bytes: [UInt8]
    /// Encodes the members that are not `JournalRecordable`.
    let differ: ValueDiffer
    /// Whether the container being written has no element yet.
    private var isFirst = true
    /// Set when a member could not be encoded: the value is then encoded through `Codable`.
    private(set) var failed = false

    init(differ: ValueDiffer, bytes: [UInt8] = []) {
        self.differ = differ
        self.bytes = bytes
    }

    /// Takes the bytes written, leaving the writer empty (its storage goes with them).
    mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// Opens the value's JSON object.
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        isFirst = true
    }

    /// Closes the object opened last.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        isFirst = false
    }

    /// Opens a JSON array.
    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        isFirst = true
    }

    /// Closes the array opened last.
    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        isFirst = false
    }

    /// Writes an array's next element.
    mutating func element<T: JournalRecordable>(_ value: T) {
        separate()
        value.writeJournalJSON(to: &self)
    }

    /// Writes a member.
    ///
    /// - Parameters:
    ///   - key: The member's name, as its synthesized coding key spells it.
    ///   - value: The member's value, encoded as `Codable` encodes it.
    public mutating func member<T: Encodable>(_ key: StaticString, _ value: T) {
        beginMember(key)
        write(value)
    }

    /// Writes an optional member, or nothing when it is `nil` (as `encodeIfPresent` does).
    public mutating func member<T: Encodable>(_ key: StaticString, _ value: T?) {
        guard let value else { return }
        beginMember(key)
        write(value)
    }

    /// Writes a member that writes its own JSON.
    public mutating func member<T: JournalRecordable>(_ key: StaticString, _ value: T) {
        beginMember(key)
        value.writeJournalJSON(to: &self)
    }

    /// Writes an optional member that writes its own JSON, or nothing when it is `nil`.
    public mutating func member<T: JournalRecordable>(_ key: StaticString, _ value: T?) {
        guard let value else { return }
        beginMember(key)
        value.writeJournalJSON(to: &self)
    }

    private mutating func separate() {
        if isFirst {
            isFirst = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }

    private mutating func beginMember(_ key: StaticString) {
        separate()
        bytes.appendJSONKey(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a value that is not `JournalRecordable` where a value goes.
    mutating func value<T: Encodable>(_ value: T) {
        write(value)
    }

    /// Writes a value that is not `JournalRecordable`: numbers, strings and booleans directly
    /// (a comparison of type metadata each), anything else through the recorder's encoder.
    private mutating func write<T: Encodable>(_ value: T) {
        if T.self == Int.self {
            bytes.appendDecimal(unsafeBitCast(value, to: Int.self))
        } else if T.self == String.self {
            bytes.appendJSONString(unsafeBitCast(value, to: String.self))
        } else if T.self == Bool.self {
            bytes.append(contentsOf: unsafeBitCast(value, to: Bool.self) ? JSONLiteral.true : JSONLiteral.false)
        } else if T.self == Double.self {
            bytes.appendJSONNumber(unsafeBitCast(value, to: Double.self))
        } else if let json = differ.json(of: value) {
            bytes.append(contentsOf: json)
        } else {
            failed = true
        }
    }
}

/// The bytes of JSON's literals.
enum JSONLiteral {
    static let `true`: [UInt8] = Array("true".utf8)
    static let `false`: [UInt8] = Array("false".utf8)
}

extension Array where Element == UInt8 {
    /// Appends a member's key as a JSON string: a plain identifier's bytes as they are, any
    /// other name escaped.
    mutating func appendJSONKey(_ key: StaticString) {
        guard key.hasPointerRepresentation else {
            appendJSONString(key.description)
            return
        }
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        guard !name.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            appendJSONString(key.description)
            return
        }
        append(UInt8(ascii: "\""))
        append(contentsOf: name)
        append(UInt8(ascii: "\""))
    }
}
