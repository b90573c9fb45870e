/// Captures what a value's `encode(to:)` writes at its top level — the members of a keyed
/// container, the elements of an unkeyed one, or a single value — as Swift values, without
/// encoding them. ``ValueDiffer`` compares two captures part by part and encodes only the parts
/// that differ.
final class ShallowCapture {
    /// The shape of what was written.
    enum Shape {
        case empty
        case keyed
        case unkeyed
        case single
    }

    /// One part. Numbers, strings and booleans are kept as themselves, so comparing and
    /// writing them needs no cast; anything else is a nested value still to be encoded, or a
    /// nested container.
    enum Part {
        case null
        case bool(Bool)
        case int(Int)
        case string(String)
        case double(Double)
        case value(any Encodable)
        case nested(ShallowCapture)
    }

    private(set) var shape = Shape.empty
    /// The keys of a keyed container's members, in the order they were written.
    private(set) var keys: [String] = []
    /// The parts in the order they were written (a keyed container's beside its `keys`).
    private(set) var parts: [Part] = []
    /// Set when the value did something a capture cannot follow (`superEncoder`, mixed
    /// container kinds); the value is then written whole.
    private(set) var isUnsupported = false

    /// Captures `value`'s top level.
    static func of<T: Encodable>(_ value: T) -> ShallowCapture {
        let capture = ShallowCapture()
        do {
            try value.encode(to: CapturingEncoder(capture: capture))
        } catch {
            capture.isUnsupported = true
        }
        return capture
    }

    fileprivate func begin(_ shape: Shape) {
        if self.shape == .empty {
            self.shape = shape
            parts.reserveCapacity(4)
            if shape == .keyed { keys.reserveCapacity(4) }
        } else if self.shape != shape || shape == .single {
            isUnsupported = true
        }
    }

    fileprivate func append(_ key: String, _ part: Part) {
        keys.append(key)
        parts.append(part)
    }

    fileprivate func append(_ part: Part) {
        parts.append(part)
    }

    fileprivate func markUnsupported() {
        isUnsupported = true
    }
}

private struct CapturingEncoder: Encoder {
    let capture: ShallowCapture
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        capture.begin(.keyed)
        return KeyedEncodingContainer(CapturingKeyedContainer<Key>(capture: capture))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        capture.begin(.unkeyed)
        return CapturingUnkeyedContainer(capture: capture)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        CapturingSingleValueContainer(capture: capture)
    }
}

private struct CapturingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let capture: ShallowCapture
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { capture.append(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { capture.append(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { capture.append(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { capture.append(key.stringValue, .double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { capture.append(key.stringValue, .int(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        capture.append(key.stringValue, .value(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = ShallowCapture()
        nested.begin(.keyed)
        capture.append(key.stringValue, .nested(nested))
        return KeyedEncodingContainer(CapturingKeyedContainer<NestedKey>(capture: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ShallowCapture()
        nested.begin(.unkeyed)
        capture.append(key.stringValue, .nested(nested))
        return CapturingUnkeyedContainer(capture: nested)
    }

    mutating func superEncoder() -> any Encoder {
        capture.markUnsupported()
        return CapturingEncoder(capture: ShallowCapture())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        capture.markUnsupported()
        return CapturingEncoder(capture: ShallowCapture())
    }
}

private struct CapturingUnkeyedContainer: UnkeyedEncodingContainer {
    let capture: ShallowCapture
    var codingPath: [any CodingKey] { [] }
    var count: Int { capture.parts.count }

    mutating func encodeNil() throws { capture.append(.null) }
    mutating func encode(_ value: Bool) throws { capture.append(.bool(value)) }
    mutating func encode(_ value: String) throws { capture.append(.string(value)) }
    mutating func encode(_ value: Double) throws { capture.append(.double(value)) }
    mutating func encode(_ value: Int) throws { capture.append(.int(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        capture.append(.value(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ShallowCapture()
        nested.begin(.keyed)
        capture.append(.nested(nested))
        return KeyedEncodingContainer(CapturingKeyedContainer<NestedKey>(capture: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ShallowCapture()
        nested.begin(.unkeyed)
        capture.append(.nested(nested))
        return CapturingUnkeyedContainer(capture: nested)
    }

    mutating func superEncoder() -> any Encoder {
        capture.markUnsupported()
        return CapturingEncoder(capture: ShallowCapture())
    }
}

private struct CapturingSingleValueContainer: SingleValueEncodingContainer {
    let capture: ShallowCapture
    var codingPath: [any CodingKey] { [] }

    private func single(_ part: ShallowCapture.Part) {
        capture.begin(.single)
        capture.append(part)
    }

    mutating func encodeNil() throws { single(.null) }
    mutating func encode(_ value: Bool) throws { single(.bool(value)) }
    mutating func encode(_ value: String) throws { single(.string(value)) }
    mutating func encode(_ value: Double) throws { single(.double(value)) }
    mutating func encode(_ value: Int) throws { single(.int(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        single(.value(value))
    }
}
