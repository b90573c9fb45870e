import Foundation

/// Decodes a `Decodable` value straight from a parsed ``JSONValue``, as a default
/// `JSONDecoder` decodes the same JSON's bytes (the strategies the recorder's encoder writes
/// for: `Data` as base64, `URL` as a string, `Date` as its `timeIntervalSinceReferenceDate`,
/// `Decimal` as a number, non-finite numbers as `"Infinity"`, `"-Infinity"`, `"NaN"`).
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
            throw mismatch([String: Any].self, "Expected to decode a dictionary but found \(value.kind) instead.")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
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

    /// A value of `type` here: the types `JSONDecoder` treats by strategy first.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Data.self {
            guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
                throw mismatch(type, "Expected a base64 string for Data.")
            }
            return data as! T
        }
        if type == URL.self {
            guard case .string(let text) = value, let url = URL(string: text) else {
                throw mismatch(type, "Expected a URL string.")
            }
            return url as! T
        }
        if type == Date.self {
            return Date(timeIntervalSinceReferenceDate: try floatingPoint(Double.self)) as! T
        }
        if type == Decimal.self {
            guard case .number(let number) = value, let decimal = Decimal(string: number.text) else {
                throw mismatch(type, "Expected a number for Decimal.")
            }
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
        // A number written with a fraction or exponent that is a whole number in range.
        let double = number.double
        guard double.rounded() == double, let whole = T(exactly: double) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "Number \(number.text) does not fit in \(type)."))
        }
        return whole
    }

    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        switch value {
        case .number(let number):
            guard let parsed = T(number.text) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "Number \(number.text) does not fit in \(type)."))
            }
            return parsed
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string("NaN"): return .nan
        default:
            throw mismatch(type, "Expected to decode \(type) but found \(value.kind) instead.")
        }
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

    /// The element at the current index, and the index moved past it.
    private mutating func next<T>(_ type: T.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try SingleContainer(decoder: next(type)).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try SingleContainer(decoder: next(type)).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try SingleContainer(decoder: next(type)).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try SingleContainer(decoder: next(type)).decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(Any.self)
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
