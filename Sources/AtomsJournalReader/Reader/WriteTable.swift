/// Write counts by atom number, for the summary's scan of a part of a journal: a plain table
/// as long as the journal's atoms need (below ``limit``), grown by doubling, so that counting
/// a write is one comparison and one add, and a small journal's table is a few words, not
/// 512 KB zeroed and walked for each part it scans.
///
/// It owns its memory: ``deallocate()`` frees it (the scan calls it once, when it is done).
struct WriteTable {
    /// Atoms numbered from here on are not counted here (the caller counts them).
    static let limit = 1 << 16

    private var counts: UnsafeMutablePointer<Int>
    /// The atoms the table holds: `0..<capacity`.
    private var capacity: Int

    /// An empty table (room for 64 atoms).
    init() {
        capacity = 64
        counts = .allocate(capacity: capacity)
        counts.initialize(repeating: 0, count: capacity)
    }

    /// Counts one write of `atom`; `false` when the atom is negative or ``limit`` or above,
    /// which this table does not count.
    @inline(__always)
    mutating func count(_ atom: Int) -> Bool {
        // One unsigned comparison: a negative atom wraps to a large number.
        if UInt(bitPattern: atom) >= UInt(bitPattern: capacity) {
            guard atom >= 0, atom < Self.limit else { return false }
            grow(toHold: atom)
        }
        counts[atom] += 1
        return true
    }

    /// Whether `atom`, just counted by ``count(_:)``, was counted once: its first write.
    @inline(__always)
    func isFirst(_ atom: Int) -> Bool {
        counts[atom] == 1
    }

    /// Makes the table hold `atom`: twice as long as before, or as long as it must be.
    private mutating func grow(toHold atom: Int) {
        let newCapacity = min(Self.limit, max(capacity * 2, atom + 1))
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        grown.initialize(repeating: 0, count: newCapacity)
        grown.update(from: counts, count: capacity)
        counts.deallocate()
        counts = grown
        capacity = newCapacity
    }

    /// Calls `body` with each atom written and its count, in atom order.
    func forEachCount(_ body: (Int, Int) -> Void) {
        for atom in 0..<capacity where counts[atom] > 0 {
            body(atom, counts[atom])
        }
    }

    /// Frees the table; it must not be used after.
    func deallocate() {
        counts.deallocate()
    }
}
