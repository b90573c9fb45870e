import Foundation

/// Encodes `Encodable` values straight to compact JSON bytes, noting where each member of a
/// top-level object lies so that the recorder can write only the members that changed.
///
/// `JSONEncoder` builds a tree of boxed values before writing; for the small values a journal
/// records on every transaction that costs about ten times more than the value's own
/// `encode(to:)`. This encoder writes while the value encodes itself. Its output decodes with a
/// default `JSONDecoder` exactly as `JSONEncoder`'s does: `Data` is base64, `URL` a string,
/// `Decimal` a number, non-finite floating-point numbers the strings `Infinity`, `-Infinity`
/// and `NaN`, and string-keyed and integer-keyed dictionaries have sorted keys so that equal
/// values encode to equal bytes. The rare shapes it does not stream (`superEncoder`, a
/// container used after a sibling replaced it) throw ``Unsupported``; callers then use
/// `JSONEncoder`.
struct CompactJSONEncoder: @unchecked Sendable {
    // Unchecked: the writer is reused between encodings. Each owner (the recorder on the main
    // actor, the line builder on the recorder's thread) has its own encoder and uses it from
    // one thread.
    /// The encoding of one value.
    struct Output {
        /// The JSON text, UTF-8.
        var bytes: [UInt8]
        /// For a value encoded as a JSON object: its members' keys (as quoted JSON strings)
        /// and values, as ranges of `bytes`, in order. `nil` for any other value.
        var members: [Member]?
    }

    /// One member of a top-level object.
    struct Member {
        /// The key, a JSON string literal with its quotes.
        var key: Range<Int>
        /// The value's JSON text.
        var value: Range<Int>
    }

    /// The value asked for a way of encoding this encoder does not stream.
    struct Unsupported: Error {}

    private let writer = JSONStreamWriter()

    /// Encodes `value`.
    ///
    /// - Throws: ``Unsupported``, or whatever the value's `encode(to:)` throws.
    func encode<T: Encodable>(_ value: T) throws -> Output {
        writer.reset()
        try writer.encodeTopLevel(value)
        // Taken out of the writer, not shared with it: the output's storage is then its own,
        // to be recycled without a copy.
        var output = Output(bytes: [], members: nil)
        swap(&output.bytes, &writer.bytes)
        swap(&output.members, &writer.topLevelMembers)
        return output
    }

    /// Keeps an encoding's storage, which nothing else refers to any more, for the next
    /// encoding: a value written at every transaction then encodes into the storage of the
    /// one it replaced, with no allocation and no free.
    func recycle(bytes: inout [UInt8], members: inout [Member]?) {
        writer.keepSpare(bytes: &bytes, members: &members)
    }
}

/// The state of one encoding: the bytes so far and the stack of open containers.
///
/// Containers are closed lazily: a container stays open until something is written to an
/// enclosing one, or the value that opened it finishes encoding.
private final class JSONStreamWriter {
    struct Frame {
        var isObject: Bool
        var count = 0
        let serial: Int
    }

    /// How a type is written, decided once per type.
    enum Kind {
        case string, int, bool, double, data, url, date, decimal, sortedDictionary, hashOrdered, encodable
    }

    // Only ever used from one thread at a time, never reentrantly: skip exclusivity checks.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var topLevelMembers: [CompactJSONEncoder.Member]?
    @exclusivity(unchecked) private var openMemberStart: (key: Range<Int>, value: Int)?
    @exclusivity(unchecked) private var serials = 0
    @exclusivity(unchecked) private var kinds: [ObjectIdentifier: Kind] = [:]
    /// The type looked up last: most values are of the type encoded just before.
    @exclusivity(unchecked) private var lastKind: (type: ObjectIdentifier, kind: Kind)?
    let userInfo: [CodingUserInfoKey: Any] = [:]

    /// The storage of an encoding given back (``CompactJSONEncoder/recycle(bytes:members:)``),
    /// for the next one.
    @exclusivity(unchecked) private var spareBytes: [UInt8] = []
    @exclusivity(unchecked) private var spareMembers: [CompactJSONEncoder.Member] = []

    /// Starts a new encoding.
    func reset() {
        bytes = []
        if spareBytes.capacity > 0 {
            swap(&bytes, &spareBytes)
        } else {
            bytes.reserveCapacity(64)
        }
        frames.removeAll(keepingCapacity: true)
        topLevelMembers = nil
        openMemberStart = nil
    }

    /// Keeps storage for the next encoding, when none is kept yet. (Storage something else
    /// still refers to is copied on emptying, as it would have been allocated anyway.)
    /// Emptied in place and swapped in, never bound to a second variable: a copy would make
    /// the storage shared, and emptying shared storage allocates. Only small storage is kept:
    /// the next encoding may be of any value, and a small value kept in a large buffer would
    /// hold it for as long as its atom lives.
    func keepSpare(bytes: inout [UInt8], members: inout [CompactJSONEncoder.Member]?) {
        if spareBytes.capacity == 0, bytes.capacity > 0, bytes.capacity <= Self.largestSpareBytes {
            bytes.removeAll(keepingCapacity: true)
            swap(&spareBytes, &bytes)
        }
        if spareMembers.capacity == 0, let capacity = members?.capacity, capacity > 0, capacity <= Self.largestSpareMembers {
            members!.removeAll(keepingCapacity: true)
            swap(&spareMembers, &members!)
        }
    }

    /// The largest storage kept for the next encoding: what a small struct's encoding takes.
    private static let largestSpareBytes = 4 << 10
    private static let largestSpareMembers = 64

    func encodeTopLevel<T: Encodable>(_ value: T) throws {
        try encodeValue(value)
        close(toDepth: 0)
    }

    // MARK: Containers

    /// Opens a container at the current position; returns its depth and serial.
    func open(object: Bool) -> (depth: Int, serial: Int) {
        serials += 1
        if frames.isEmpty && object && bytes.isEmpty {
            // Room for a small struct's members: growing from empty allocates three times.
            if spareMembers.capacity > 0 {
                topLevelMembers = spareMembers
                spareMembers = []
            } else {
                topLevelMembers = []
                topLevelMembers!.reserveCapacity(8)
            }
        }
        bytes.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append(Frame(isObject: object, serial: serials))
        return (frames.count - 1, serials)
    }

    /// Closes every container deeper than `depth` (so `close(toDepth: 0)` closes them all).
    func close(toDepth depth: Int) {
        while frames.count > depth {
            let frame = frames.removeLast()
            if frames.isEmpty && frame.isObject {
                finishMember()
            }
            bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Makes the container at `depth` current, closing deeper ones; throws when it was closed.
    func activate(depth: Int, serial: Int) throws {
        guard depth < frames.count, frames[depth].serial == serial else {
            throw CompactJSONEncoder.Unsupported()
        }
        close(toDepth: depth + 1)
    }

    /// Starts the next element of the current container: a comma, and the key for an object.
    func beginElement(key: String?) {
        let index = frames.count - 1
        if frames[index].count > 0 {
            if index == 0, frames[0].isObject { finishMember() }
            bytes.append(UInt8(ascii: ","))
        }
        frames[index].count += 1
        if let key {
            let start = bytes.count
            writeString(key)
            let keyRange = start..<bytes.count
            bytes.append(UInt8(ascii: ":"))
            if index == 0 {
                openMemberStart = (keyRange, bytes.count)
            }
        }
    }

    private func finishMember() {
        guard let start = openMemberStart else { return }
        topLevelMembers?.append(CompactJSONEncoder.Member(key: start.key, value: start.value..<bytes.count))
        openMemberStart = nil
    }

    // MARK: Values

    /// Encodes any value at the current position.
    ///
    /// Generic rather than over `any Encodable`: a value reaches `encode(to:)` without being
    /// boxed in an existential, and the kinds below are exact types (`kind(of:)` compares type
    /// identity), so the bit casts are casts to `T` itself.
    func encodeValue<T: Encodable>(_ value: T) throws {
        switch kind(of: T.self) {
        case .string: writeString(unsafeBitCast(value, to: String.self))
        case .int: writeInteger(unsafeBitCast(value, to: Int.self))
        case .bool: writeBool(unsafeBitCast(value, to: Bool.self))
        case .double: writeFloatingPoint(unsafeBitCast(value, to: Double.self))
        case .data: writeString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        case .url: writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        case .date: writeFloatingPoint(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate)
        case .decimal: writeNumberText(unsafeBitCast(value, to: Decimal.self).description)
        case .sortedDictionary: try (value as! any SortedKeysJSONDictionary).encodeSorted(into: self)
        case .hashOrdered:
            let depth = frames.count
            let start = bytes.count
            try value.encode(to: StreamingEncoder(writer: self, depth: depth))
            close(toDepth: depth)
            try writeCanonically(from: start, isSet: T.self is any SetMarker.Type)
        case .encodable:
            let depth = frames.count
            let start = bytes.count
            let encoder = StreamingEncoder(writer: self, depth: depth)
            try value.encode(to: encoder)
            if bytes.count == start && frames.count == depth {
                // A value that encoded nothing is an empty object, as with `JSONEncoder`.
                _ = open(object: true)
            }
            close(toDepth: depth)
        }
    }

    private func kind(of type: any Encodable.Type) -> Kind {
        if let last = lastKind, last.type == ObjectIdentifier(type) {
            return last.kind
        }
        if let known = kinds[ObjectIdentifier(type)] {
            lastKind = (ObjectIdentifier(type), known)
            return known
        }
        let kind: Kind =
            if type == String.self { .string }
            else if type == Int.self { .int }
            else if type == Bool.self { .bool }
            else if type == Double.self { .double }
            else if type == Data.self { .data }
            else if type == URL.self { .url }
            else if type == Date.self { .date }
            else if type == Decimal.self { .decimal }
            else if type is any SortedKeysJSONDictionary.Type { .sortedDictionary }
            else if type is any HashOrderedCollection.Type { .hashOrdered }
            else { .encodable }
        kinds[ObjectIdentifier(type)] = kind
        return kind
    }

    /// Rewrites the set or dictionary just written from `start` in the canonical order
    /// (`docs/JOURNAL_FORMAT.md`): hashing orders them differently in every process.
    private func writeCanonically(from start: Int, isSet: Bool) throws {
        let reordered: [UInt8]? = try bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw, range: start..<raw.count)
            if scanner.peek() == UInt8(ascii: "{") {
                // An object: members by key.
                var members: [(key: String, range: Range<Int>)] = []
                var memberStart = scanner.position + 1
                try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
                    let value = try scanner.skipValue()
                    members.append((key, memberStart..<value.upperBound))
                    memberStart = value.upperBound + 1
                }
                let sorted = members.sorted { CanonicalOrder.precedes($0.key, $1.key) }
                return Self.joined(sorted.map(\.range), in: raw, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"))
            }
            var elements: [(range: Range<Int>, value: JSONValue)] = []
            try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                _ = scanner.peek()
                let valueStart = scanner.position
                let value = try scanner.value()
                elements.append((valueStart..<scanner.position, value))
            }
            if isSet {
                let sorted = elements.sorted { JSONValue.canonicallyPrecedes($0.value, $1.value) }
                return Self.joined(sorted.map(\.range), in: raw, open: UInt8(ascii: "["), close: UInt8(ascii: "]"))
            }
            // A dictionary written as [key, value, key, value, …]: pairs by key.
            guard elements.count.isMultiple(of: 2) else { return nil }
            let pairs = stride(from: 0, to: elements.count, by: 2).map { (key: elements[$0].value, range: elements[$0].range.lowerBound..<elements[$0 + 1].range.upperBound) }
            let sorted = pairs.sorted { JSONValue.canonicallyPrecedes($0.key, $1.key) }
            return Self.joined(sorted.map(\.range), in: raw, open: UInt8(ascii: "["), close: UInt8(ascii: "]"))
        }
        if let reordered {
            bytes.replaceSubrange(start..., with: reordered)
        }
        if frames.isEmpty {
            // Members noted while writing point at the old order.
            topLevelMembers = nil
        }
    }

    private static func joined(_ ranges: [Range<Int>], in raw: UnsafeRawBufferPointer, open: UInt8, close: UInt8) -> [UInt8] {
        var result: [UInt8] = [open]
        for (index, range) in ranges.enumerated() {
            if index > 0 { result.append(UInt8(ascii: ",")) }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[range]))
        }
        result.append(close)
        return result
    }

    func writeNull() {
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    func writeBool(_ value: Bool) {
        bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
    }

    func writeInteger<T: BinaryInteger>(_ value: T) {
        bytes.appendDecimal(value)
    }

    func writeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) {
        bytes.appendJSONNumber(value)
    }

    func writeNumberText(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    func writeString(_ value: String) {
        bytes.appendJSONString(value)
    }
}

/// Sets and dictionaries: written in the canonical order, not the order hashing gives.
private protocol HashOrderedCollection {}

/// Sets, among hash-ordered collections.
private protocol SetMarker {}

extension Set: HashOrderedCollection, SetMarker {}
extension Dictionary: HashOrderedCollection {}

/// Dictionaries that encode as JSON objects, written with their keys sorted.
private protocol SortedKeysJSONDictionary {
    func encodeSorted(into writer: JSONStreamWriter) throws
}

extension Dictionary: SortedKeysJSONDictionary where Key: Comparable & Encodable & CodingKeyConvertible, Value: Encodable {
    fileprivate func encodeSorted(into writer: JSONStreamWriter) throws {
        let depth = writer.frames.count
        _ = writer.open(object: true)
        for key in keys.sorted() {
            writer.close(toDepth: depth + 1)
            writer.beginElement(key: key.codingKeyString)
            try writer.encodeValue(self[key]!)
        }
        writer.close(toDepth: depth)
    }
}

/// Keys `JSONEncoder` writes as object keys.
private protocol CodingKeyConvertible {
    var codingKeyString: String { get }
}

extension String: CodingKeyConvertible {
    fileprivate var codingKeyString: String { self }
}

extension Int: CodingKeyConvertible {
    fileprivate var codingKeyString: String { String(self) }
}

/// The `Encoder` handed to a value's `encode(to:)`.
private struct StreamingEncoder: Encoder {
    let writer: JSONStreamWriter
    /// The container depth this value's container opens at.
    let depth: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { writer.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second request (a subclass and its superclass sharing the encoder) continues the
        // same object.
        if writer.frames.count > depth, writer.frames[depth].isObject {
            return KeyedEncodingContainer(StreamingKeyedContainer(writer: writer, depth: depth, serial: writer.frames[depth].serial))
        }
        writer.close(toDepth: depth)
        let opened = writer.open(object: true)
        return KeyedEncodingContainer(StreamingKeyedContainer(writer: writer, depth: opened.depth, serial: opened.serial))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if writer.frames.count > depth, !writer.frames[depth].isObject {
            return StreamingUnkeyedContainer(writer: writer, depth: depth, serial: writer.frames[depth].serial)
        }
        writer.close(toDepth: depth)
        let opened = writer.open(object: false)
        return StreamingUnkeyedContainer(writer: writer, depth: opened.depth, serial: opened.serial)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(writer: writer, depth: depth)
    }
}

private struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let depth: Int
    let serial: Int

    var codingPath: [any CodingKey] { [] }

    private func begin(_ key: Key) throws {
        try writer.activate(depth: depth, serial: serial)
        writer.beginElement(key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws { try begin(key); writer.writeNull() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try begin(key); writer.writeBool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try begin(key); writer.writeString(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try begin(key); writer.writeFloatingPoint(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try begin(key); writer.writeFloatingPoint(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try writer.encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // Protocol requirement without `throws`: a stale container yields a detached one whose
        // writes throw.
        guard (try? begin(key)) != nil else {
            return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(writer: writer, depth: Int.max, serial: -1))
        }
        let opened = writer.open(object: true)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(writer: writer, depth: opened.depth, serial: opened.serial))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard (try? begin(key)) != nil else {
            return StreamingUnkeyedContainer(writer: writer, depth: Int.max, serial: -1)
        }
        let opened = writer.open(object: false)
        return StreamingUnkeyedContainer(writer: writer, depth: opened.depth, serial: opened.serial)
    }

    mutating func superEncoder() -> any Encoder {
        UnsupportedEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        UnsupportedEncoder()
    }
}

/// The element writes unkeyed and single-value containers share: each starts an element
/// (`begin()`), then writes it.
private protocol StreamingElementContainer {
    var writer: JSONStreamWriter { get }
    func begin() throws
}

extension StreamingElementContainer {
    mutating func encodeNil() throws { try begin(); writer.writeNull() }
    mutating func encode(_ value: Bool) throws { try begin(); writer.writeBool(value) }
    mutating func encode(_ value: String) throws { try begin(); writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try begin(); writer.writeFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try begin(); writer.writeFloatingPoint(value) }
    mutating func encode(_ value: Int) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try begin(); writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try writer.encodeValue(value)
    }
}

private struct StreamingUnkeyedContainer: UnkeyedEncodingContainer, StreamingElementContainer {
    let writer: JSONStreamWriter
    let depth: Int
    let serial: Int

    var codingPath: [any CodingKey] { [] }
    var count: Int {
        depth < writer.frames.count && writer.frames[depth].serial == serial ? writer.frames[depth].count : 0
    }

    func begin() throws {
        try writer.activate(depth: depth, serial: serial)
        writer.beginElement(key: nil)
    }


    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        guard (try? begin()) != nil else {
            return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(writer: writer, depth: Int.max, serial: -1))
        }
        let opened = writer.open(object: true)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(writer: writer, depth: opened.depth, serial: opened.serial))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        guard (try? begin()) != nil else {
            return StreamingUnkeyedContainer(writer: writer, depth: Int.max, serial: -1)
        }
        let opened = writer.open(object: false)
        return StreamingUnkeyedContainer(writer: writer, depth: opened.depth, serial: opened.serial)
    }

    mutating func superEncoder() -> any Encoder {
        UnsupportedEncoder()
    }
}

private struct StreamingSingleValueContainer: SingleValueEncodingContainer, StreamingElementContainer {
    let writer: JSONStreamWriter
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    /// A single value is written where the encoder stands; writing a second one is invalid.
    func begin() throws {
        guard writer.frames.count == depth else { throw CompactJSONEncoder.Unsupported() }
    }

}

/// Handed out for `superEncoder()`: every use throws, so the caller falls back to
/// `JSONEncoder`.
private struct UnsupportedEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamingKeyedContainer<Key>(writer: JSONStreamWriter(), depth: Int.max, serial: -1))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamingUnkeyedContainer(writer: JSONStreamWriter(), depth: Int.max, serial: -1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(writer: JSONStreamWriter(), depth: -1)
    }
}
