import Foundation

/// Decodes a `Decodable` value straight from a parsed ``JSONValue``, as a `JSONDecoder` with
/// default strategies decodes the same JSON's bytes (`Data` as base64, `URL` as a string,
/// `Date` as its `timeIntervalSinceReferenceDate`, `Decimal` as a number), but for non-finite
/// numbers, taken from the strings the recorder writes for them (`"Infinity"`, `"-Infinity"`,
/// `"NaN"`), as the seeds' decoder always took them.
///
/// A replay decodes every recorded write it drives, and a shrink every candidate value:
/// going through the bytes again and Foundation's parser cost more than the write itself
/// (a todo toggled in a 500-element list decodes one element, many times over).
struct JSONValueDecoder {
    /// `value` decoded as `type`.
    ///
    /// - Throws: `DecodingError`, with the coding path, where the value does not fit.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

/// The decoder at one place in the value.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            try notNull(KeyedDecodingContainer<Key>.self)
            throw mismatch([String: Any].self, "Expected to decode a dictionary but found \(value.kind) instead.")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            try notNull((any UnkeyedDecodingContainer).self)
            throw mismatch([Any].self, "Expected to decode an array but found \(value.kind) instead.")
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleContainer(decoder: self)
    }

    func mismatch(_ type: Any.Type, _ description: String) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    /// A value of `type` here: the types `JSONDecoder` treats by strategy first.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // The casts below are of a value to `T` where `T` is its type: they cannot fail.
        if type == Data.self {
            try notNull(type)
            let text = try string()
            guard let data = Data(base64Encoded: text) else { throw corrupted("Encountered Data is not valid Base64.") }
            return data as! T
        }
        if type == URL.self {
            try notNull(type)
            guard let url = URL(string: try string()) else { throw corrupted("Invalid URL string.") }
            return url as! T
        }
        if type == Date.self {
            try notNull(type)
            return Date(timeIntervalSinceReferenceDate: try floatingPoint(Double.self)) as! T
        }
        if type == Decimal.self {
            try notNull(type)
            guard case .number(let number) = value else { throw mismatch(type, "Expected to decode Decimal but found \(value.kind) instead.") }
            guard let decimal = Decimal(string: number.text) else { throw corrupted("Number \(number.text) is not a valid Decimal.") }
            return decimal as! T
        }
        return try T(from: self)
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else {
            throw mismatch(type, "Expected to decode \(type) but found \(value.kind) instead.")
        }
        if let exact = T(number.text) {
            return exact
        }
        // A number written with a fraction or an exponent that is a whole number in range, as
        // JSONDecoder reads one: exactly, through its decimal digits.
        guard let decimal = Decimal(string: number.text), !decimal.isZero || !Self.hasNonZeroDigit(number.text), let whole = T(decimal.description) else {
            throw corrupted("Number \(number.text) is not representable in Swift.")
        }
        return whole
    }

    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        switch value {
        case .number(let number):
            // Too large becomes infinite and too small zero when parsed; JSONDecoder refuses both.
            guard let parsed = T(number.text), parsed.isFinite, parsed != 0 || !Self.hasNonZeroDigit(number.text) else {
                throw corrupted("Number \(number.text) is not representable in Swift.")
            }
            return parsed
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string("NaN"): return .nan
        default:
            throw mismatch(type, "Expected to decode \(type) but found \(value.kind) instead.")
        }
    }

    /// Whether a number's digits before its exponent are not all zeros.
    static func hasNonZeroDigit(_ text: String) -> Bool {
        text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    func string() throws -> String {
        guard case .string(let text) = value else {
            throw mismatch(String.self, "Expected to decode String but found \(value.kind) instead.")
        }
        return text
    }

    func bool() throws -> Bool {
        guard case .bool(let flag) = value else {
            throw mismatch(Bool.self, "Expected to decode Bool but found \(value.kind) instead.")
        }
        return flag
    }

    func notNull<T>(_ type: T.Type) throws {
        if case .null = value {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.notNull(type); return try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.notNull(type); return try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.notNull(type); return try decoder.floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.notNull(type); return try decoder.floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.notNull(type); return try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try decoder(for: key).value == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try SingleContainer(decoder: decoder(for: key)).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// Decodes the element at the current index, and moves past it only when that succeeds
    /// (as JSONDecoder does: a failed element can be decoded again as something else).
    private mutating func next<T, Result>(_ type: T.Type, _ decode: (ValueDecoder) throws -> Result) throws -> Result {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        let result = try decode(ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)]))
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try SingleContainer(decoder: $0).decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try SingleContainer(decoder: $0).decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try SingleContainer(decoder: $0).decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try SingleContainer(decoder: $0).decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decodeValue(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(Any.self) { $0 }
    }
}

/// An array index as a coding key, as `JSONDecoder` names one in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

private extension JSONValue {
    /// What a value is, for messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
