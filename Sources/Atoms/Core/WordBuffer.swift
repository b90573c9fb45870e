/// A growable list of 64-bit words in storage it owns: appending checks the capacity and
/// stores, with no uniqueness check and no reference count (an `Array` in a class's field pays
/// both on every append), and emptying it keeps the storage. Timing records are written into
/// these on the app's thread and read on the recorder's (``TimingWord``).
package struct WordBuffer: ~Copyable, @unchecked Sendable {
    // Unchecked: a buffer is owned by one thread at a time (the main actor's timer and
    // recorder, then the pipeline's lock hands it over); it is never shared.
    private var base: UnsafeMutablePointer<UInt64>
    /// How many words it holds.
    package private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` words.
    package init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Whether it holds no word.
    package var isEmpty: Bool { count == 0 }

    /// The words, valid until the buffer next changes.
    package var words: UnsafeBufferPointer<UInt64> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// The word at `index` (below ``count``).
    package subscript(index: Int) -> UInt64 {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    /// Appends a word.
    @inline(__always)
    package mutating func append(_ word: UInt64) {
        if count == capacity { grow(to: count + 1) }
        base[count] = word
        count += 1
    }

    /// Appends words.
    package mutating func append(contentsOf words: UnsafeBufferPointer<UInt64>) {
        guard let source = words.baseAddress, !words.isEmpty else { return }
        if count + words.count > capacity { grow(to: count + words.count) }
        (base + count).update(from: source, count: words.count)
        count += words.count
    }

    /// Keeps the first `count` words.
    package mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count)
        self.count = count
    }

    /// Empties it, keeping its storage.
    package mutating func removeAll() {
        count = 0
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt64>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
