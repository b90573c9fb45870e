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

    /// One part: a nested value still to be encoded, `null`, or a nested container.
    enum Part {
        case value(any Encodable)
        case null
        case nested(ShallowCapture)
    }

    private(set) var shape = Shape.empty
    /// The parts in the order they were written; `key` is `nil` outside keyed containers.
    private(set) var parts: [(key: String?, part: Part)] = []
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
        } else if self.shape != shape || shape == .single {
            isUnsupported = true
        }
    }

    fileprivate func append(_ key: String?, _ part: Part) {
        parts.append((key, part))
    }

    fileprivate func markUnsupported() {
        isUnsupported = true
    }
}

private struct CaptureFailed: Error {}

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

    mutating func encodeNil(forKey key: Key) throws {
        capture.append(key.stringValue, .null)
    }

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

    mutating func encodeNil() throws {
        capture.append(nil, .null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        capture.append(nil, .value(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ShallowCapture()
        nested.begin(.keyed)
        capture.append(nil, .nested(nested))
        return KeyedEncodingContainer(CapturingKeyedContainer<NestedKey>(capture: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ShallowCapture()
        nested.begin(.unkeyed)
        capture.append(nil, .nested(nested))
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

    mutating func encodeNil() throws {
        capture.begin(.single)
        capture.append(nil, .null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        capture.begin(.single)
        capture.append(nil, .value(value))
    }
}
