import Foundation

/// Finds what changed between an atom's previous and new value by comparing them as Swift
/// values, and writes a format 3 delta (``ValueDelta``) that encodes only the changed parts.
///
/// The comparison follows the value's own structure:
/// - bitwise-identical values are equal (the recorder compares only values holding no class
///   instance, whose bits fix their encoding);
/// - arrays, sets, dictionaries and optionals compare element by element
///   (`ValueDiffer+Collections.swift`), with `Equatable` where the element type has it;
/// - floating-point numbers compare by their bits (`-0.0` is written `-0`, and a change of
///   only the sign of a zero is a change); strings and other leaves compare with `==`;
/// - any other value is compared member by member as its `encode(to:)` lists them
///   (``ShallowCapture``), after `==` when its type is `Equatable` and its values hold no
///   floating-point number (``FloatingPointContent``), for which `==` would hide that change.
///
/// So a change to one element of a 1,000-element array costs a scan of the array's bytes plus
/// the encoding of one element, not an encoding of the whole array.
///
/// Runs on the recorder's thread; not thread-safe (it caches per-type decisions).
final class ValueDiffer: @unchecked Sendable {
    // Unchecked: owned by one line builder, which one thread uses at a time (created on the
    // main actor, then handed to the recorder's thread).

    /// The result of comparing two values.
    enum Change {
        /// Equal: nothing to write.
        case unchanged
        /// Different, and best written whole (the caller encodes the new value).
        case replaced
        /// Different: the delta's JSON.
        case delta([UInt8])
    }

    /// How values of a type are compared, decided once per type.
    private enum Strategy {
        /// Compared with `==` and written whole when different.
        case leaf(any EqualityChecking)
        /// An array, set, dictionary or optional.
        case collection
        /// Compared member by member, after `==` when the type is `Equatable`.
        case structure((any EqualityChecking)?)
    }

    private let encoder = CompactJSONEncoder()
    /// The number of the transaction being recorded: a comparison remembered by its values'
    /// bits holds within it only (``ComparisonMemo``).
    private(set) var transaction = 0
    /// Byte buffers that deltas are built in, kept with their capacity between transactions.
    private var spareBuffers: [[UInt8]] = []
    /// Types whose values are structs of numbers, strings and booleans only.
    private var flatTypes: [ObjectIdentifier: Bool] = [:]
    private var strategies: [ObjectIdentifier: Strategy] = [:]
    private var equalities: [ObjectIdentifier: (any EqualityChecking)?] = [:]

    /// Starts the next transaction's comparisons.
    func beginTransaction() {
        transaction += 1
    }

    /// An empty byte buffer, with the capacity of one used before when there is one.
    func takeBuffer() -> [UInt8] {
        spareBuffers.popLast() ?? []
    }

    /// Keeps a buffer's storage for ``takeBuffer()``, leaving `buffer` empty.
    func recycle(_ buffer: inout [UInt8]) {
        guard buffer.capacity > 0, spareBuffers.count < 64 else {
            buffer = []
            return
        }
        buffer.removeAll(keepingCapacity: true)
        spareBuffers.append(buffer)
        buffer = []
    }

    /// Keeps a delta's storage for ``takeBuffer()`` once it has been written out.
    func recycle(_ change: inout Change) {
        if case .delta(var bytes) = change {
            change = .unchanged
            recycle(&bytes)
        }
    }

    /// Compares two values of one type.
    func change<T: Encodable>(from old: T, to new: T) -> Change {
        if Self.bitwiseEqual(old, new) {
            return .unchanged
        }
        switch strategy(for: T.self, sample: new) {
        case .leaf(let equality):
            return equality.isEqual(old, new) ? .unchanged : .replaced
        case .collection:
            return (new as! any JournalDiffableCollection).journalChange(from: old, differ: self)
        case .structure(let equality):
            if let equality, equality.isEqual(old, new) {
                return .unchanged
            }
            return structuralChange(from: ShallowCapture.of(old), to: ShallowCapture.of(new))
        }
    }

    /// Whether a value's type is a struct whose members are numbers, strings and booleans
    /// (judged from its first value). Such values cost less to encode whole and compare as
    /// JSON (``MemberDelta``) than to compare member by member as Swift values.
    func isFlat(_ value: Any) -> Bool {
        let key = ObjectIdentifier(Swift.type(of: value))
        if let known = flatTypes[key] {
            return known
        }
        let flat = (value as? any Encodable).map { isFlat(encodable: $0) } ?? false
        flatTypes[key] = flat
        return flat
    }

    private func isFlat<T: Encodable>(encodable value: T) -> Bool {
        guard case .structure = strategy(for: T.self, sample: value) else { return false }
        let capture = ShallowCapture.of(value)
        return capture.shape == .keyed && !capture.isUnsupported && capture.parts.allSatisfy { part in
            switch part {
            case .null, .bool, .int, .string, .double: true
            case .value, .nested: false
            }
        }
    }

    /// How `Element`s compare exactly: floating-point numbers by their bits, other `Equatable`
    /// types with `==`, confirmed member by member when their values may hold a
    /// floating-point number (judged from `sample`, a value of the type); `nil` when the type
    /// is not `Equatable`.
    func equality<Element>(for type: Element.Type, sample: Element?) -> (any EqualityChecking)? {
        if let known = knownEquality(for: type) {
            return known
        }
        let key = ObjectIdentifier(type)
        guard type is any Equatable.Type else {
            equalities[key] = .some(nil)
            return nil
        }
        let holdsFloatingPoint: Bool
        if let answer = FloatingPointContent.typeLevelAnswer(type) {
            holdsFloatingPoint = answer
        } else if let sample {
            holdsFloatingPoint = FloatingPointContent.mayHold(sample)
        } else {
            // Nothing to judge from yet: no `==` this time, decided with the first value.
            return nil
        }
        let equality = makeEquality(for: type, holdingFloatingPoint: holdsFloatingPoint)
        equalities[key] = equality
        return equality
    }

    /// The equality of `type` when it is decided already (`.some(nil)`: not `Equatable`);
    /// `nil` when it is not. No value of the type is needed, so a caller names no `Element?`.
    func knownEquality<Element>(for type: Element.Type) -> (any EqualityChecking)?? {
        equalities[ObjectIdentifier(type)]
    }

    private func makeEquality<Element>(for type: Element.Type, holdingFloatingPoint: Bool) -> (any EqualityChecking)? {
        if type == Double.self || type == Float.self || type == Date.self {
            return BitwiseEquality()
        }
        guard let equatable = type as? any Equatable.Type else { return nil }
        func witness<E: Equatable>(_: E.Type) -> any EqualityChecking {
            holdingFloatingPoint ? ConfirmedEquatableWitness<E>(differ: self) : EquatableWitness<E>()
        }
        return witness(equatable)
    }

    /// Whether two values equal by `==` are written the same: compared member by member, as
    /// their `encode(to:)` lists them (numbers by their bits).
    fileprivate func encodesTheSame<T>(_ lhs: T, _ rhs: T) -> Bool {
        guard let old = lhs as? any Encodable, let new = rhs as? any Encodable else { return false }
        if case .unchanged = structuralChange(from: ShallowCapture.of(old), to: ShallowCapture.of(new)) {
            return true
        }
        return false
    }

    private func strategy<T: Encodable>(for type: T.Type, sample: T) -> Strategy {
        let key = ObjectIdentifier(type)
        if let known = strategies[key] {
            return known
        }
        let strategy: Strategy
        if type is any JournalDiffableCollection.Type {
            strategy = .collection
        } else if Self.isLeaf(type), let equality = equality(for: type, sample: sample) {
            strategy = .leaf(equality)
        } else {
            strategy = .structure(equality(for: type, sample: sample))
        }
        strategies[key] = strategy
        return strategy
    }

    /// Types written as one JSON scalar: nothing inside them to patch.
    private static func isLeaf(_ type: Any.Type) -> Bool {
        type == String.self || type == Int.self || type == Bool.self || type == Double.self
            || type == Float.self || type == Int8.self || type == Int16.self || type == Int32.self
            || type == Int64.self || type == UInt.self || type == UInt8.self || type == UInt16.self
            || type == UInt32.self || type == UInt64.self || type == Date.self || type == Data.self
            || type == URL.self || type == Decimal.self || type == UUID.self
    }

    /// Whether two values have the same bits. For values without class instances inside, the
    /// same bits mean the same value, so the same encoding; the converse does not hold (a
    /// string equal to another may sit in other storage), so `false` proves nothing.
    static func bitwiseEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
        withUnsafeBytes(of: lhs) { a in
            withUnsafeBytes(of: rhs) { b in
                a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }

    // MARK: Encoding parts

    /// The JSON of a value, as the recorder writes whole values.
    func json<T: Encodable>(of value: T) -> [UInt8]? {
        do {
            return try encoder.encode(value).bytes
        } catch {
            return nil
        }
    }

    /// The JSON of a value of a type known only at run time.
    func json(ofAny value: any Encodable) -> [UInt8]? {
        json(of: value)
    }

    // MARK: Structures

    private func structuralChange(from old: ShallowCapture, to new: ShallowCapture) -> Change {
        guard !old.isUnsupported, !new.isUnsupported, old.shape == new.shape else {
            return .replaced
        }
        switch new.shape {
        case .empty:
            return .unchanged
        case .single:
            return change(from: old.parts[0], to: new.parts[0])
        case .keyed:
            return keyedChange(from: old, to: new)
        case .unkeyed:
            return unkeyedChange(from: old.parts, to: new.parts)
        }
    }

    private func change(from old: ShallowCapture.Part, to new: ShallowCapture.Part) -> Change {
        switch (old, new) {
        case (.null, .null):
            return .unchanged
        case (.bool(let a), .bool(let b)):
            return a == b ? .unchanged : .replaced
        case (.int(let a), .int(let b)):
            return a == b ? .unchanged : .replaced
        case (.string(let a), .string(let b)):
            return a == b ? .unchanged : .replaced
        case (.double(let a), .double(let b)):
            // Bits, not `==`: `-0.0` and `0.0` are written differently, NaN equals itself.
            return a.bitPattern == b.bitPattern ? .unchanged : .replaced
        case (.value(let a), .value(let b)):
            guard Swift.type(of: a) == Swift.type(of: b) else { return .replaced }
            return openedChange(from: a, to: b)
        case (.nested(let a), .nested(let b)):
            return structuralChange(from: a, to: b)
        default:
            return .replaced
        }
    }

    private func openedChange<T: Encodable>(from old: any Encodable, to new: T) -> Change {
        change(from: old as! T, to: new)
    }

    /// Appends the JSON of a captured part; returns `false` when it cannot be encoded.
    func appendJSON(of part: ShallowCapture.Part, to bytes: inout [UInt8]) -> Bool {
        switch part {
        case .null:
            bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let value):
            bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .int(let value):
            bytes.appendDecimal(value)
        case .string(let value):
            bytes.appendJSONString(value)
        case .double(let value):
            bytes.appendJSONNumber(value)
        case .value(let value):
            guard let json = json(ofAny: value) else { return false }
            bytes.append(contentsOf: json)
        case .nested(let capture):
            guard !capture.isUnsupported else { return false }
            let isObject = capture.shape == .keyed
            bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            for (index, part) in capture.parts.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                if isObject {
                    bytes.appendJSONString(capture.keys[index])
                    bytes.append(UInt8(ascii: ":"))
                }
                guard appendJSON(of: part, to: &bytes) else { return false }
            }
            bytes.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return true
    }

    /// The JSON of a captured part.
    func json(of part: ShallowCapture.Part) -> [UInt8]? {
        var bytes: [UInt8] = []
        return appendJSON(of: part, to: &bytes) ? bytes : nil
    }

    private func keyedChange(from old: ShallowCapture, to new: ShallowCapture) -> Change {
        var object = ObjectDeltaWriter()
        // Members usually come in the same order in both: match by position first.
        var matched = [Bool](repeating: false, count: old.keys.count)
        for (index, key) in new.keys.enumerated() {
            let oldIndex = index < old.keys.count && old.keys[index] == key ? index : old.keys.firstIndex(of: key)
            guard let oldIndex, !matched[oldIndex] else {
                guard let json = json(of: new.parts[index]) else { return .replaced }
                object.set(key, json)
                continue
            }
            matched[oldIndex] = true
            switch change(from: old.parts[oldIndex], to: new.parts[index]) {
            case .unchanged:
                continue
            case .delta(let delta):
                object.patch(key, delta)
            case .replaced:
                guard let json = json(of: new.parts[index]) else { return .replaced }
                object.set(key, json)
            }
        }
        for (index, key) in old.keys.enumerated() where !matched[index] {
            object.remove(key)
        }
        return object.finish(memberCount: new.keys.count)
    }

    private func unkeyedChange(from old: [ShallowCapture.Part], to new: [ShallowCapture.Part]) -> Change {
        var operations = ArrayDeltaWriter()
        for index in 0..<min(old.count, new.count) {
            switch change(from: old[index], to: new[index]) {
            case .unchanged:
                continue
            case .delta(let delta):
                operations.patch(at: index, delta)
            case .replaced:
                guard let json = json(of: new[index]) else { return .replaced }
                operations.splice(at: index, removing: 1, inserting: [json])
            }
        }
        if old.count > new.count {
            operations.splice(at: new.count, removing: old.count - new.count, inserting: [])
        } else if new.count > old.count {
            var inserted: [[UInt8]] = []
            for part in new[old.count...] {
                guard let json = json(of: part) else { return .replaced }
                inserted.append(json)
            }
            operations.splice(at: old.count, removing: 0, inserting: inserted)
        }
        return operations.finish()
    }
}

/// Compares two values of one `Equatable` type known only at run time.
protocol EqualityChecking {
    /// `lhs == rhs`; both must be of the witnessed type.
    func isEqual<T>(_ lhs: T, _ rhs: T) -> Bool
}

/// Equal when the bits are: for floating-point numbers (and `Date`s), whose `==` calls `0.0`
/// and `-0.0` equal although they are written differently.
private struct BitwiseEquality: EqualityChecking {
    func isEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
        ValueDiffer.bitwiseEqual(lhs, rhs)
    }
}

/// `==`, confirmed member by member: for types whose values may hold a floating-point number,
/// whose `==` would call a change of only a zero's sign equal.
private struct ConfirmedEquatableWitness<E: Equatable>: EqualityChecking {
    // Unowned: the differ keeps its witnesses.
    unowned let differ: ValueDiffer

    func isEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
        // `T` is `E`: the witness is only handed out for that type.
        unsafeBitCast(lhs, to: E.self) == unsafeBitCast(rhs, to: E.self) && differ.encodesTheSame(lhs, rhs)
    }
}

private struct EquatableWitness<E: Equatable>: EqualityChecking {
    func isEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
        // `T` is `E`: the witness is only handed out for that type.
        unsafeBitCast(lhs, to: E.self) == unsafeBitCast(rhs, to: E.self)
    }
}
