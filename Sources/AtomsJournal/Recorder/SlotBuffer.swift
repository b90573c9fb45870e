/// A capture slot's values in order: a growable buffer that keeps its storage when emptied.
///
/// Not `[Value]`: a capture slot's code is not specialized for the atom's value type, and there
/// every use of an `Array<Value>` looks its metadata up at run time (several hundred
/// instructions), more than the rest of a capture. A pointer to `Value` needs no lookup.
struct SlotBuffer<Value> {
    private var base: UnsafeMutablePointer<Value>?
    private(set) var count = 0
    private var capacity = 0

    var isEmpty: Bool {
        @inline(__always) get { count == 0 }
    }

    /// Appends a copy of the value at `value`, doubling the storage when full.
    @inline(__always)
    mutating func append(copyOf value: UnsafePointer<Value>) {
        if count == capacity {
            grow()
        }
        (base.unsafelyUnwrapped + count).initialize(to: value.pointee)
        count += 1
    }

    /// Appends a value, doubling the storage when full.
    @inline(__always)
    mutating func append(_ value: consuming Value) {
        if count == capacity {
            grow()
        }
        (base.unsafelyUnwrapped + count).initialize(to: value)
        count += 1
    }

    /// Moves every value of `other` to the end of this buffer, leaving `other` empty (its
    /// storage kept): when this one is empty, the two exchange storage instead.
    mutating func takeAll(from other: inout SlotBuffer) {
        guard other.count > 0 else { return }
        guard count > 0 else {
            Self.exchange(&self, &other)
            return
        }
        while capacity - count < other.count {
            grow()
        }
        (base.unsafelyUnwrapped + count).moveInitialize(from: other.base.unsafelyUnwrapped, count: other.count)
        count += other.count
        other.count = 0
    }

    /// The value at `index` (below `count`).
    @inline(__always)
    subscript(index: Int) -> Value {
        base.unsafelyUnwrapped[index]
    }

    /// Destroys the values, keeping the storage.
    mutating func removeAll() {
        if count > 0 {
            base.unsafelyUnwrapped.deinitialize(count: count)
            count = 0
        }
    }

    /// Destroys the values and frees the storage.
    mutating func deallocate() {
        removeAll()
        base?.deallocate()
        base = nil
        capacity = 0
    }

    private mutating func grow() {
        let newCapacity = Swift.max(4, capacity * 2)
        let newBase = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }

    /// Exchanges two buffers' contents and storage.
    static func exchange(_ a: inout SlotBuffer, _ b: inout SlotBuffer) {
        let base = a.base, count = a.count, capacity = a.capacity
        a.base = b.base
        a.count = b.count
        a.capacity = b.capacity
        b.base = base
        b.count = count
        b.capacity = capacity
    }
}
