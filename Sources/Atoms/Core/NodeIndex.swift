/// Where a node is filed in the store's index: its atom type, the hash of its key, its scope.
struct NodeIndexKey: Hashable {
    let type: ObjectIdentifier
    let keyHash: Int
    /// The scope's number, 0 at the root.
    let scope: Int

    /// `keyHash` is already a full hash of the key: mixing the type and scope into it and
    /// feeding the hasher one word saves two rounds on every lookup.
    func hash(into hasher: inout Hasher) {
        hasher.combine(keyHash ^ Int(bitPattern: UInt(bitPattern: type)) &* 31 ^ scope &* 1_000_003)
    }
}

/// Finds cached atoms by type, key and scope.
///
/// One non-generic dictionary for the whole store, keyed by the key's hash: the hot path hashes
/// the atom's own key once and never boxes it in `AnyHashable`, never instantiates a generic
/// dictionary, and unregistering a node needs no type information. Nodes whose keys collide on
/// a hash are chained through ``AnyAtomNode/nextInBucket`` and told apart by comparing keys.
@MainActor
struct NodeIndex {
    private var buckets: [NodeIndexKey: AnyAtomNode] = [:]

    nonisolated init() {}

    static func key<Node: Atom>(for key: Node.Key, of type: Node.Type, scope: ScopeKey?) -> NodeIndexKey {
        NodeIndexKey(type: ObjectIdentifier(type), keyHash: key.hashValue, scope: scope?.id ?? 0)
    }

    /// The node of an atom type with this key in this scope, if cached.
    func node<Node: Atom>(key: Node.Key, of type: Node.Type, scope: ScopeKey?) -> AtomNode<Node>? {
        var candidate = buckets[Self.key(for: key, of: type, scope: scope)]
        while let node = candidate {
            // Same bucket means same type and scope; only the key itself can differ.
            let typed = unsafeDowncast(node, to: AtomNode<Node>.self)
            if typed.atom.key == key {
                return typed
            }
            candidate = node.nextInBucket
        }
        return nil
    }

    /// Files a node under its index key.
    mutating func insert(_ node: AnyAtomNode) {
        node.nextInBucket = buckets[node.indexKey]
        buckets[node.indexKey] = node
    }

    /// Removes a node from its bucket.
    mutating func remove(_ node: AnyAtomNode) {
        guard let head = buckets[node.indexKey] else {
            return
        }
        if head === node {
            buckets[node.indexKey] = node.nextInBucket
        } else {
            var previous = head
            while let next = previous.nextInBucket, next !== node {
                previous = next
            }
            previous.nextInBucket = node.nextInBucket
        }
        node.nextInBucket = nil
    }
}
