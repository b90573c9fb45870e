import Foundation

/// Collections whose changes ``ValueDiffer`` records element by element.
protocol JournalDiffableCollection: Encodable {
    /// What changed from `old` (a value of the same type) to `self`.
    func journalChange(from old: Any, differ: ValueDiffer) -> ValueDiffer.Change
}

extension Optional: JournalDiffableCollection where Wrapped: Encodable {
    func journalChange(from old: Any, differ: ValueDiffer) -> ValueDiffer.Change {
        switch (old as! Self, self) {
        case (nil, nil): .unchanged
        case (let before?, let after?): differ.change(from: before, to: after)
        default: .replaced
        }
    }
}

extension Array: JournalDiffableCollection where Element: Encodable {
    func journalChange(from old: Any, differ: ValueDiffer) -> ValueDiffer.Change {
        ArrayChange.change(from: old as! [Element], to: self, differ: differ, compare: { old, new, differ in
            differ.change(from: old, to: new)
        }, json: { element, differ in
            differ.json(of: element)
        })
    }
}

/// What changed between two arrays, whatever compares and encodes their elements (`Codable`'s
/// encoding, or a ``JournalRecordable`` element's own code).
enum ArrayChange {
    /// Arrays: equal leading and trailing elements are skipped (compared by their bits first,
    /// then with `==`), and what remains between them becomes element patches, or removed and
    /// inserted runs found by the standard library's `difference(from:by:)`.
    ///
    /// - Parameters:
    ///   - compare: What changed between two elements.
    ///   - json: An element's JSON, `nil` when it cannot be encoded (the array is then
    ///     written whole).
    static func change<Element: Encodable>(
        from old: [Element], to new: [Element], differ: ValueDiffer,
        compare: (Element, Element, ValueDiffer) -> ValueDiffer.Change,
        json: (Element, ValueDiffer) -> [UInt8]?
    ) -> ValueDiffer.Change {
        // This code is not specialized for the element type: each type it names is looked up
        // at run time when it is called (several hundred instructions each). What a toggle
        // needs stays here; the first judgement of the element type and the list diff are
        // functions of their own.
        let equality = differ.knownEquality(for: Element.self) ?? firstEquality(old, new, differ: differ)
        // Equal leading and trailing runs, found by comparing the arrays' bytes in bulk (an
        // element whose bytes differ may still be equal: `==` decides for those).
        let (prefix, suffix) = old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in
                BitwiseRuns.equalEnds(oldBytes, count: old.count, newBytes, count: new.count, size: MemoryLayout<Element>.size, stride: MemoryLayout<Element>.stride) { oldIndex, newIndex in
                    equality?.isEqual(old[oldIndex], new[newIndex]) == true
                }
            }
        }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        if oldMiddle.isEmpty && newMiddle.isEmpty {
            return .unchanged
        }
        // Equal-length middles of a few elements are edits in place (a toggled flag, a
        // renamed item); longer or uneven ones are aligned by a list diff when elements are
        // `Equatable`.
        guard let equality, oldMiddle.count != newMiddle.count || oldMiddle.count > 8 else {
            var operations = ArrayDeltaWriter(pool: differ)
            guard edit(old, new, position: prefix, oldRun: oldMiddle, newRun: newMiddle, into: &operations, differ: differ, compare: compare, json: json) else {
                return .replaced
            }
            return operations.finish()
        }
        return alignedChange(from: old, to: new, oldMiddle: oldMiddle, newMiddle: newMiddle, equality: equality, differ: differ, compare: compare, json: json)
    }

    /// The equality of the element type, judged from the arrays' first element (the first
    /// time the type is seen).
    @inline(never)
    private static func firstEquality<Element>(_ old: [Element], _ new: [Element], differ: ValueDiffer) -> (any EqualityChecking)? {
        differ.equality(for: Element.self, sample: new.first ?? old.first)
    }

    /// ``change(from:to:differ:compare:json:)`` for middles aligned by the standard library's
    /// `difference(from:by:)`: removed and inserted runs, and patches where they pair up.
    @inline(never)
    private static func alignedChange<Element: Encodable>(
        from old: [Element], to new: [Element], oldMiddle: Range<Int>, newMiddle: Range<Int>, equality: any EqualityChecking, differ: ValueDiffer,
        compare: (Element, Element, ValueDiffer) -> ValueDiffer.Change,
        json: (Element, ValueDiffer) -> [UInt8]?
    ) -> ValueDiffer.Change {
        let prefix = oldMiddle.lowerBound
        let difference = new[newMiddle].difference(from: old[oldMiddle]) { a, b in
            ValueDiffer.bitwiseEqual(a, b) || equality.isEqual(a, b)
        }
        var removed = Set<Int>()
        var insertedAt = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): insertedAt.insert(offset)
            }
        }
        var operations = ArrayDeltaWriter(pool: differ)
        // Walk both middles together; `newIndex` is also where the edited array stands.
        var oldIndex = oldMiddle.lowerBound
        var newIndex = newMiddle.lowerBound
        while oldIndex < oldMiddle.upperBound || newIndex < newMiddle.upperBound {
            var removedRun = 0
            while oldIndex + removedRun < oldMiddle.upperBound, removed.contains(oldIndex + removedRun - prefix) { removedRun += 1 }
            var insertedRun = 0
            while newIndex + insertedRun < newMiddle.upperBound, insertedAt.contains(newIndex + insertedRun - prefix) { insertedRun += 1 }
            if removedRun == 0 && insertedRun == 0 {
                oldIndex += 1
                newIndex += 1
                continue
            }
            let oldRun = oldIndex..<(oldIndex + removedRun)
            let newRun = newIndex..<(newIndex + insertedRun)
            guard edit(old, new, position: newIndex, oldRun: oldRun, newRun: newRun, into: &operations, differ: differ, compare: compare, json: json) else {
                return .replaced
            }
            oldIndex += removedRun
            newIndex += insertedRun
        }
        return operations.finish()
    }

    /// Writes element patches for the pairs of `oldRun` and `newRun`, then one splice for
    /// what is left over; `position` is where `oldRun` starts in the array as edited so far.
    /// Returns `false` when an element cannot be encoded (the array is then written whole).
    private static func edit<Element>(
        _ old: [Element], _ new: [Element], position: Int, oldRun: Range<Int>, newRun: Range<Int>, into operations: inout ArrayDeltaWriter, differ: ValueDiffer,
        compare: (Element, Element, ValueDiffer) -> ValueDiffer.Change,
        json: (Element, ValueDiffer) -> [UInt8]?
    ) -> Bool {
        let pairs = Swift.min(oldRun.count, newRun.count)
        for offset in 0..<pairs {
            var change = compare(old[oldRun.lowerBound + offset], new[newRun.lowerBound + offset], differ)
            switch change {
            case .unchanged:
                continue
            case .delta(let delta):
                operations.patch(at: position + offset, delta)
                differ.recycle(&change)
            case .replaced:
                guard let json = json(new[newRun.lowerBound + offset], differ) else { return false }
                operations.splice(at: position + offset, removing: 1, inserting: [json])
            }
        }
        var inserted: [[UInt8]] = []
        for index in (newRun.lowerBound + pairs)..<newRun.upperBound {
            guard let json = json(new[index], differ) else { return false }
            inserted.append(json)
        }
        operations.splice(at: position + pairs, removing: oldRun.count - pairs, inserting: inserted)
        return true
    }
}

extension Set: JournalDiffableCollection where Element: Encodable {
    /// Sets: the elements added and removed, each list in the canonical order.
    func journalChange(from old: Any, differ: ValueDiffer) -> ValueDiffer.Change {
        let old = old as! Set<Element>
        let added = subtracting(old)
        let removed = old.subtracting(self)
        if added.isEmpty && removed.isEmpty {
            // Equal by `==`, which calls `0.0` and `-0.0` equal: elements that may hold a
            // floating-point number are compared by their JSON too.
            guard let sample = first, FloatingPointContent.mayHold(sample) else { return .unchanged }
            let before = CanonicalOrder.sortedJSON(old.map { differ.json(of: $0) })
            let after = CanonicalOrder.sortedJSON(map { differ.json(of: $0) })
            return before != nil && before == after ? .unchanged : .replaced
        }
        guard !SetDeltaWriter.isWrittenWhole(added: added.count, removed: removed.count, count: count),
            let addedJSON = CanonicalOrder.sortedJSON(added.map { differ.json(of: $0) }),
            let removedJSON = CanonicalOrder.sortedJSON(removed.map { differ.json(of: $0) })
        else {
            return .replaced
        }
        return SetDeltaWriter.delta(added: addedJSON, removed: removedJSON)
    }
}

extension Dictionary: JournalDiffableCollection where Key: Encodable, Value: Encodable {
    /// Dictionaries: the entries set, changed and removed. Those written as JSON objects
    /// (`String`, `Int` and `CodingKeyRepresentable` keys) get an object delta; the others,
    /// written as `[key, value, …]` lists, a dictionary delta.
    func journalChange(from old: Any, differ: ValueDiffer) -> ValueDiffer.Change {
        let old = old as! [Key: Value]
        var set: [(key: Key, json: [UInt8])] = []
        var patched: [(key: Key, delta: [UInt8])] = []
        for (key, value) in self {
            guard let previous = old[key] else {
                guard let json = differ.json(of: value) else { return .replaced }
                set.append((key, json))
                continue
            }
            switch differ.change(from: previous, to: value) {
            case .unchanged: continue
            case .delta(let delta): patched.append((key, delta))
            case .replaced:
                guard let json = differ.json(of: value) else { return .replaced }
                set.append((key, json))
            }
        }
        let removed = old.keys.filter { self[$0] == nil }
        if set.isEmpty && patched.isEmpty && removed.isEmpty {
            return .unchanged
        }
        if let objectKey = Self.objectKey {
            var object = ObjectDeltaWriter()
            for entry in set.sorted(by: { CanonicalOrder.precedes(objectKey($0.key), objectKey($1.key)) }) {
                object.set(objectKey(entry.key), entry.json)
            }
            for entry in patched.sorted(by: { CanonicalOrder.precedes(objectKey($0.key), objectKey($1.key)) }) {
                object.patch(objectKey(entry.key), entry.delta)
            }
            for key in removed.map(objectKey).sorted(by: CanonicalOrder.precedes) {
                object.remove(key)
            }
            return object.finish(memberCount: count)
        }
        // Keys written as JSON values: sorted by their parsed JSON in the canonical order.
        func keyed<Payload>(_ entries: [(Key, Payload)]) -> [(key: [UInt8], payload: Payload)]? {
            var result: [(key: [UInt8], value: JSONValue, payload: Payload)] = []
            for (key, payload) in entries {
                guard let json = differ.json(of: key), let parsed = try? JSONValue.parse(json) else { return nil }
                result.append((json, parsed, payload))
            }
            return result.sorted { JSONValue.canonicallyPrecedes($0.value, $1.value) }.map { ($0.key, $0.payload) }
        }
        guard let setEntries = keyed(set.map { ($0.key, $0.json) }),
            let patchedEntries = keyed(patched.map { ($0.key, $0.delta) }),
            let removedKeys = keyed(removed.map { ($0, ()) })
        else {
            return .replaced
        }
        var delta = DictionaryDeltaWriter()
        for entry in setEntries { delta.set(entry.key, entry.payload) }
        for entry in patchedEntries { delta.patch(entry.key, entry.payload) }
        for key in removedKeys { delta.remove(key.key) }
        return delta.finish(memberCount: count)
    }

    /// How a key is written as an object key, for dictionaries `JSONEncoder` writes as objects.
    private static var objectKey: ((Key) -> String)? {
        if Key.self == String.self {
            return { $0 as! String }
        }
        if Key.self == Int.self {
            return { String($0 as! Int) }
        }
        if Key.self is any CodingKeyRepresentable.Type {
            return { ($0 as! any CodingKeyRepresentable).codingKey.stringValue }
        }
        return nil
    }
}
