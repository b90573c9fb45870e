/// What holds each live atom's recorded value (its capture slot), by atom number: an
/// open-addressing table sized by the live atoms, not by the numbers handed out so far, so
/// atoms that come and go (family members) leave nothing behind.
///
/// The recorder reads and writes a value several times per transaction: a number is placed by
/// a multiplicative hash and linear probing, with none of `Dictionary`'s seeded hashing, which
/// cost more than the rest of the lookup.
struct ValueTable<Holder> {
    /// Atom numbers by bucket; 0 marks an empty bucket (numbers start at 1).
    private var keys: [Int] = Array(repeating: 0, count: Self.minimumCapacity)
    private var slots: [Holder?] = Array(repeating: nil, count: Self.minimumCapacity)
    /// Each value's keyframe entry as the last keyframe wrote it, by bucket; `nil` once the
    /// value was set again (or was not live then). A keyframe encodes only what changed
    /// since the one before (``keyframeEntries(_:)``).
    private var keyframeTexts: [String?] = Array(repeating: nil, count: Self.minimumCapacity)
    /// The number of live atoms held.
    private(set) var count = 0

    private static var minimumCapacity: Int { 16 }

    /// The buckets allocated: at most eight times the live atoms (or the minimum).
    var capacity: Int { keys.count }

    /// The holder of atom `id`'s value, or `nil` when it is not live. Setting it, even to the
    /// same holder, marks the value as set since the last keyframe.
    subscript(id: Int) -> Holder? {
        get {
            guard let index = bucket(of: id) else { return nil }
            return slots[index]
        }
        set {
            if let index = bucket(of: id) {
                if keyframeTexts[index] != nil {
                    keyframeTexts[index] = nil
                }
                if let newValue {
                    slots[index] = newValue
                } else {
                    remove(at: index)
                }
            } else if let newValue {
                insert(id, newValue)
            }
        }
    }

    /// Whether atom `id` is live (has a value), without copying the value.
    func contains(_ id: Int) -> Bool {
        bucket(of: id) != nil
    }

    /// The keyframe entries of the live atoms, by number: each written by `entry` when its
    /// value was set since the last call, else as that call wrote it. A keyframe costs what
    /// changed since the one before, not the whole state again.
    ///
    /// - Complexity: O(*n* log *n*) for *n* live atoms, plus `entry` for the values set since.
    mutating func keyframeEntries(_ entry: (_ id: Int, _ holder: Holder) -> String) -> [String] {
        var written: [(id: Int, text: String)] = []
        written.reserveCapacity(count)
        for index in keys.indices where keys[index] != 0 {
            guard let value = slots[index] else { continue }
            if let text = keyframeTexts[index] {
                written.append((keys[index], text))
            } else {
                let text = entry(keys[index], value)
                keyframeTexts[index] = text
                written.append((keys[index], text))
            }
        }
        return written.sorted { $0.id < $1.id }.map(\.text)
    }

    // MARK: Buckets

    private var mask: Int { keys.count - 1 }

    /// The bucket where a probe for `id` starts (Fibonacci hashing on the table's size).
    private func home(of id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt(Int.bitWidth - keys.count.trailingZeroBitCount)) & mask
    }

    private func bucket(of id: Int) -> Int? {
        var index = home(of: id)
        while true {
            let key = keys[index]
            if key == id { return index }
            if key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    private mutating func insert(_ id: Int, _ value: Holder) {
        precondition(id > 0, "atom numbers start at 1")
        if (count + 1) * 4 > keys.count * 3 {
            resize(to: keys.count * 2)
        }
        var index = home(of: id)
        while keys[index] != 0 {
            index = (index + 1) & mask
        }
        keys[index] = id
        slots[index] = value
        keyframeTexts[index] = nil
        count += 1
    }

    /// Empties a bucket, moving later entries of its probe run back so every entry stays
    /// reachable from its home bucket without tombstones.
    private mutating func remove(at removed: Int) {
        var hole = removed
        keys[hole] = 0
        slots[hole] = nil
        keyframeTexts[hole] = nil
        count -= 1
        var index = (hole + 1) & mask
        while keys[index] != 0 {
            let home = home(of: keys[index])
            // The entry may move back to the hole unless its home lies cyclically in (hole, index].
            let staysPut = hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if !staysPut {
                keys[hole] = keys[index]
                slots[hole] = slots[index].take()
                keyframeTexts[hole] = keyframeTexts[index].take()
                keys[index] = 0
                hole = index
            }
            index = (index + 1) & mask
        }
        if keys.count > Self.minimumCapacity && count * 8 < keys.count {
            resize(to: keys.count / 2)
        }
    }

    private mutating func resize(to capacity: Int) {
        let oldKeys = keys
        let oldSlots = slots
        let oldTexts = keyframeTexts
        keys = Array(repeating: 0, count: capacity)
        slots = Array(repeating: nil, count: capacity)
        keyframeTexts = Array(repeating: nil, count: capacity)
        count = 0
        for index in oldKeys.indices where oldKeys[index] != 0 {
            insert(oldKeys[index], oldSlots[index]!)
            // Moved with its value: still what the last keyframe wrote.
            if let text = oldTexts[index], let moved = bucket(of: oldKeys[index]) {
                keyframeTexts[moved] = text
            }
        }
    }
}

extension ValueTable: Sendable where Holder: Sendable {}

extension ValueTable where Holder == any RecordedSlot {
    /// Makes `holder` the holder of atom `id`'s value, set since the last keyframe, as the
    /// subscript does; returns whether it held it already. One lookup, and no reference
    /// count changed when it did.
    mutating func hold(_ id: Int, by holder: any RecordedSlot) -> Bool {
        guard let index = bucket(of: id) else {
            insert(id, holder)
            return false
        }
        if keyframeTexts[index] != nil {
            keyframeTexts[index] = nil
        }
        if slots[index] === holder {
            return true
        }
        slots[index] = holder
        return false
    }
}
