/// Where a node is filed in the store's index: its atom type, the hash of its key, its scope.
struct NodeIndexKey: Equatable {
    let type: ObjectIdentifier
    let keyHash: Int
    /// The scope's number, 0 at the root.
    let scope: Int

    /// The three parts mixed into one word. `keyHash` is already a full (seeded) hash of the
    /// key; the type and scope only tell apart atoms of different types whose keys hash alike
    /// (every atom type whose key is a field-less struct, say).
    var mixed: Int {
        keyHash ^ Int(bitPattern: UInt(bitPattern: type)) &* 31 ^ scope &* 1_000_003
    }
}

/// Finds cached atoms by type, key and scope.
///
/// An open-addressing table of nodes, probed linearly from a slot picked by the key's hash.
/// Not a `Dictionary`: the hot path hashes the atom's own key once and uses that hash directly,
/// where a dictionary would feed it through a second `Hasher` on every lookup, insert and
/// removal; no generic dictionary is instantiated per atom type, no key is boxed in
/// `AnyHashable`, and removing a node needs no type information. Each slot keeps its node's
/// mixed hash next to the node, so a probe touches a node (a likely cache miss) only when the
/// hashes match. Nodes whose keys collide on a hash sit in neighbouring slots and are told
/// apart by comparing the keys themselves.
@MainActor
struct NodeIndex {
    private struct Slot {
        var hash: Int
        var node: AnyAtomNode?
    }

    /// Power-of-two sized; at most half full, so probe sequences stay short.
    private var slots: [Slot] = []
    private var count = 0
    /// `64 - log2(slots.count)`: the shift that takes a slot number from a hash's high bits.
    private var shift = 64

    nonisolated init() {}

    static func key<Node: Atom>(for key: Node.Key, of type: Node.Type, scope: ScopeKey?) -> NodeIndexKey {
        NodeIndexKey(type: ObjectIdentifier(type), keyHash: key.hashValue, scope: scope?.id ?? 0)
    }

    /// The node of an atom type with this key in this scope, if cached.
    func node<Node: Atom>(key: Node.Key, of type: Node.Type, scope: ScopeKey?) -> AtomNode<Node>? {
        node(at: Self.key(for: key, of: type, scope: scope), key: key, of: type)
    }

    /// The node filed under `indexKey` whose atom has `key`, if cached.
    func node<Node: Atom>(at indexKey: NodeIndexKey, key: Node.Key, of type: Node.Type) -> AtomNode<Node>? {
        guard count > 0 else {
            return nil
        }
        let hash = indexKey.mixed
        let mask = slots.count - 1
        var slot = home(of: hash)
        while let node = slots[slot].node {
            // Same index key means same type and scope; only the key itself can differ.
            if slots[slot].hash == hash, node.indexKey == indexKey,
                unsafeDowncast(node, to: AtomNode<Node>.self).atom.key == key
            {
                return unsafeDowncast(node, to: AtomNode<Node>.self)
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Whether this very node is filed (not another node of the same atom).
    func contains(_ node: AnyAtomNode) -> Bool {
        guard count > 0 else {
            return false
        }
        let mask = slots.count - 1
        var slot = home(of: node.indexKey.mixed)
        while let candidate = slots[slot].node {
            if candidate === node {
                return true
            }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// Files a node under its index key.
    mutating func insert(_ node: AnyAtomNode) {
        if (count + 1) * 2 > slots.count {
            grow()
        }
        place(Slot(hash: node.indexKey.mixed, node: node))
        count += 1
    }

    /// Removes a node; later nodes of its probe run move back into the gap, so lookups never
    /// need to skip deleted slots.
    mutating func remove(_ node: AnyAtomNode) {
        guard count > 0 else {
            return
        }
        let mask = slots.count - 1
        var slot = home(of: node.indexKey.mixed)
        while let candidate = slots[slot].node, candidate !== node {
            slot = (slot + 1) & mask
        }
        guard slots[slot].node != nil else {
            return
        }
        slots[slot].node = nil
        count -= 1
        var gap = slot
        var next = (slot + 1) & mask
        while slots[next].node != nil {
            // A node may fill the gap unless its home lies cyclically in (gap, next].
            let home = home(of: slots[next].hash)
            let homeIsBetween = gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
            if !homeIsBetween {
                slots[gap] = slots[next]
                slots[next].node = nil
                gap = next
            }
            next = (next + 1) & mask
        }
    }

    /// The slot a hash's probe run starts at: the high bits of the hash times a large odd
    /// constant (Fibonacci hashing), so that hashes differing only in a few bits spread out.
    private func home(of hash: Int) -> Int {
        Int(truncatingIfNeeded: UInt(bitPattern: hash &* -7_046_029_254_386_353_131) >> UInt(shift))
    }

    private mutating func place(_ entry: Slot) {
        let mask = slots.count - 1
        var slot = home(of: entry.hash)
        while slots[slot].node != nil {
            slot = (slot + 1) & mask
        }
        slots[slot] = entry
    }

    private mutating func grow() {
        let old = slots
        let capacity = max(16, slots.count * 2)
        slots = Array(repeating: Slot(hash: 0, node: nil), count: capacity)
        shift = 64 - capacity.trailingZeroBitCount
        for entry in old where entry.node != nil {
            place(entry)
        }
    }
}

extension Set where Element == NodeID {
    /// Calls `body` with each node in node order, not the set's hash order (which differs
    /// between processes), so that the same program releases atoms and reports edges in the
    /// same order every run. Sets of one node, the common case, are not sorted.
    func forEachInNodeOrder(_ body: (NodeID) -> Void) {
        if count <= 1 {
            for id in self { body(id) }
        } else {
            for id in sorted() { body(id) }
        }
    }
}
