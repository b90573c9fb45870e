// The journal's value deltas, written by one writer per shape: an object's
// (``ObjectDeltaWriter``: values compared through `Codable`, values kept as their encoding,
// dictionaries written as objects, and `@JournalRecordable` values alike), an array's
// (``ArrayDeltaWriter``), a set's (``SetDeltaWriter``) and a dictionary's with keys that are not
// strings (``DictionaryDeltaWriter``). The rule for a keyed value, that one whose every member was
// set whole is written whole instead (shorter than its delta), is ``ObjectDeltaWriter``'s and
// ``DictionaryDeltaWriter``'s `finish(memberCount:)`, nowhere else; a set's own rule is
// ``SetDeltaWriter/isWrittenWhole(added:removed:count:)``.

/// The fixed bytes of the delta syntax.
enum DeltaSyntax {
    /// `["o",{`: an object delta's start.
    static let objectOpen: [UInt8] = Array(#"["o",{"#.utf8)
    /// `["a",[`: an array delta's start.
    static let arrayOpen: [UInt8] = Array(#"["a",["#.utf8)
}

/// Builds an object delta: `["o",{set},{patched},[removed]]`.
///
/// Its buffers are lent by a pool (a ``ValueDiffer``) when it has one, and given back by
/// ``finish(memberCount:)``; the delta is built in the buffer of the members set, so finishing
/// copies only the patches and removed keys.
struct ObjectDeltaWriter {
    /// `["o",{` and the members set whole, once one was.
    private var delta: [UInt8] = []
    private var patches: [UInt8] = []
    private var removed: [UInt8] = []
    /// How many members were set whole.
    private(set) var setCount = 0
    private let pool: ValueDiffer?
    /// The capacity the delta's buffer starts with, when no pool lends it.
    private let reserve: Int

    /// A writer whose buffers `pool` lends, or that reserves `reserve` bytes for the delta
    /// when it has no pool (the size the caller expects: one allocation, not several).
    init(pool: ValueDiffer? = nil, reservingCapacity reserve: Int = 0) {
        self.pool = pool
        self.reserve = reserve
    }

    /// Sets member `key` to `json`, whole.
    mutating func set(_ key: String, _ json: [UInt8]) {
        beginSet()
        delta.appendJSONString(key)
        delta.append(UInt8(ascii: ":"))
        delta.append(contentsOf: json)
    }

    /// Sets a member whole from an encoding's bytes: its key as written (a JSON string) and
    /// its value.
    mutating func set(encodedKey key: UnsafeBufferPointer<UInt8>, _ json: UnsafeBufferPointer<UInt8>) {
        beginSet()
        delta.append(contentsOf: key)
        delta.append(UInt8(ascii: ":"))
        delta.append(contentsOf: json)
    }

    /// Sets member `key` whole, its value written by `write` at the end of the buffer.
    mutating func set(_ key: StaticString, writing write: (inout [UInt8]) -> Void) {
        beginSet()
        delta.appendJSONKey(key)
        delta.append(UInt8(ascii: ":"))
        write(&delta)
    }

    /// Patches member `key` by a nested delta.
    mutating func patch(_ key: String, _ nested: [UInt8]) {
        Self.separate(&patches, pool: pool)
        patches.appendJSONString(key)
        patches.append(UInt8(ascii: ":"))
        patches.append(contentsOf: nested)
    }

    /// Patches member `key` by a nested delta.
    mutating func patch(_ key: StaticString, _ nested: [UInt8]) {
        Self.separate(&patches, pool: pool)
        patches.appendJSONKey(key)
        patches.append(UInt8(ascii: ":"))
        patches.append(contentsOf: nested)
    }

    /// Removes member `key`.
    mutating func remove(_ key: String) {
        Self.separate(&removed, pool: pool)
        removed.appendJSONString(key)
    }

    /// Removes member `key`.
    mutating func remove(_ key: StaticString) {
        Self.separate(&removed, pool: pool)
        removed.appendJSONKey(key)
    }

    /// Removes a member named by an encoding's key bytes (a JSON string).
    mutating func remove(encodedKey key: UnsafeBufferPointer<UInt8>) {
        Self.separate(&removed, pool: pool)
        removed.append(contentsOf: key)
    }

    /// The change: ``ValueDiffer/Change/unchanged`` when nothing was set, patched or removed;
    /// ``ValueDiffer/Change/replaced`` when all `memberCount` members of the new value were
    /// set whole (the value whole is shorter than its delta); the delta otherwise. Gives the
    /// buffers back to the pool.
    mutating func finish(memberCount: Int) -> ValueDiffer.Change {
        defer {
            pool?.recycle(&patches)
            pool?.recycle(&removed)
        }
        guard setCount > 0 || !patches.isEmpty || !removed.isEmpty else {
            return .unchanged
        }
        if setCount == memberCount {
            pool?.recycle(&delta)
            return .replaced
        }
        if delta.isEmpty {
            delta = pool?.takeBuffer() ?? []
            delta.append(contentsOf: DeltaSyntax.objectOpen)
        }
        delta.append(UInt8(ascii: "}"))
        if !patches.isEmpty || !removed.isEmpty {
            delta.append(UInt8(ascii: ","))
            delta.append(UInt8(ascii: "{"))
            delta.append(contentsOf: patches)
            delta.append(UInt8(ascii: "}"))
        }
        if !removed.isEmpty {
            delta.append(UInt8(ascii: ","))
            delta.append(UInt8(ascii: "["))
            delta.append(contentsOf: removed)
            delta.append(UInt8(ascii: "]"))
        }
        delta.append(UInt8(ascii: "]"))
        defer { delta = [] }
        return .delta(delta)
    }

    /// Starts a member set whole: the delta's start first, or a comma after the last.
    private mutating func beginSet() {
        if setCount == 0 {
            delta = pool?.takeBuffer() ?? []
            if pool == nil { delta.reserveCapacity(reserve) }
            delta.append(contentsOf: DeltaSyntax.objectOpen)
        } else {
            delta.append(UInt8(ascii: ","))
        }
        setCount += 1
    }

    /// Readies a part for one more entry: a buffer from the pool, or a comma after the last.
    private static func separate(_ part: inout [UInt8], pool: ValueDiffer?) {
        if part.isEmpty {
            if let pool { part = pool.takeBuffer() }
        } else {
            part.append(UInt8(ascii: ","))
        }
    }
}

/// Builds a delta of a dictionary written as a list of keys and values (keys that are not
/// strings or integers): `["m",[[key,value],…],[[key,delta],…],[key,…]]`, each list in the
/// keys' canonical order.
struct DictionaryDeltaWriter {
    private var set: [UInt8] = []
    private var patches: [UInt8] = []
    private var removed: [UInt8] = []
    /// How many entries were set whole.
    private(set) var setCount = 0

    /// Sets the entry at `key` (its JSON) to `json`, whole.
    mutating func set(_ key: [UInt8], _ json: [UInt8]) {
        setCount += 1
        Self.pair(key, json, into: &set)
    }

    /// Patches the entry at `key` (its JSON) by a nested delta.
    mutating func patch(_ key: [UInt8], _ nested: [UInt8]) {
        Self.pair(key, nested, into: &patches)
    }

    /// Removes the entry at `key` (its JSON).
    mutating func remove(_ key: [UInt8]) {
        if !removed.isEmpty { removed.append(UInt8(ascii: ",")) }
        removed.append(contentsOf: key)
    }

    private static func pair(_ key: [UInt8], _ value: [UInt8], into bytes: inout [UInt8]) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: key)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "]"))
    }

    /// The change, by the same rule as ``ObjectDeltaWriter/finish(memberCount:)``: unchanged
    /// when nothing was set, patched or removed; the value whole when all `memberCount`
    /// entries of the new value were set whole; the delta otherwise.
    func finish(memberCount: Int) -> ValueDiffer.Change {
        guard setCount > 0 || !patches.isEmpty || !removed.isEmpty else { return .unchanged }
        if setCount == memberCount { return .replaced }
        var bytes = Array(#"["m",["#.utf8)
        bytes.append(contentsOf: set)
        bytes.append(contentsOf: Array("],[".utf8))
        bytes.append(contentsOf: patches)
        bytes.append(contentsOf: Array("],[".utf8))
        bytes.append(contentsOf: removed)
        bytes.append(contentsOf: Array("]]".utf8))
        return .delta(bytes)
    }
}

/// Writes a set's delta: `["s",[added,…],[removed,…]]`, each list in the canonical order.
enum SetDeltaWriter {
    /// Whether a set is written whole instead: when its delta would name as many elements as
    /// the new set holds (a set's elements are not members, so the keyed rule does not apply).
    static func isWrittenWhole(added: Int, removed: Int, count: Int) -> Bool {
        added + removed >= count
    }

    /// The delta adding `added` and removing `removed` (each element's JSON, sorted).
    static func delta(added: [[UInt8]], removed: [[UInt8]]) -> ValueDiffer.Change {
        var bytes = Array(#"["s",["#.utf8)
        bytes.append(contentsOf: added.joined(separator: [UInt8(ascii: ",")]))
        bytes.append(contentsOf: Array("],[".utf8))
        bytes.append(contentsOf: removed.joined(separator: [UInt8(ascii: ",")]))
        bytes.append(contentsOf: Array("]]".utf8))
        return .delta(bytes)
    }
}

/// Builds an array delta: `["a",[op,…]]`, operations in the order they apply.
struct ArrayDeltaWriter {
    private var operations: [UInt8] = []
    /// Lends the buffers, when there is one.
    private let pool: ValueDiffer?

    init(pool: ValueDiffer? = nil) {
        self.pool = pool
    }

    private mutating func separate() {
        if !operations.isEmpty {
            operations.append(UInt8(ascii: ","))
        } else if let pool {
            operations = pool.takeBuffer()
        }
    }

    /// Changes element `index` by a nested delta.
    mutating func patch(at index: Int, _ delta: [UInt8]) {
        separate()
        operations.append(UInt8(ascii: "["))
        operations.appendDecimal(index)
        operations.append(UInt8(ascii: ","))
        operations.append(contentsOf: delta)
        operations.append(UInt8(ascii: "]"))
    }

    /// Removes `count` elements at `index` and inserts `values` there.
    mutating func splice(at index: Int, removing count: Int, inserting values: [[UInt8]]) {
        guard count > 0 || !values.isEmpty else { return }
        separate()
        operations.append(UInt8(ascii: "["))
        operations.appendDecimal(index)
        operations.append(UInt8(ascii: ","))
        operations.appendDecimal(count)
        operations.append(contentsOf: Array(",[".utf8))
        for (position, value) in values.enumerated() {
            if position > 0 { operations.append(UInt8(ascii: ",")) }
            operations.append(contentsOf: value)
        }
        operations.append(contentsOf: Array("]]".utf8))
    }

    /// The delta, or ``ValueDiffer/Change/unchanged`` when nothing was added; gives the
    /// buffer back to the pool.
    mutating func finish() -> ValueDiffer.Change {
        guard !operations.isEmpty else { return .unchanged }
        var bytes = pool?.takeBuffer() ?? []
        bytes.append(contentsOf: DeltaSyntax.arrayOpen)
        bytes.append(contentsOf: operations)
        bytes.append(UInt8(ascii: "]"))
        bytes.append(UInt8(ascii: "]"))
        pool?.recycle(&operations)
        return .delta(bytes)
    }
}
