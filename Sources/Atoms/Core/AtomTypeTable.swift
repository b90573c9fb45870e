/// The identity of a scoped node within its type table: the atom's key and scope.
struct NodeKey<Key: Hashable>: Hashable {
    let key: Key
    let scope: ScopeKey
}

/// Per-type lookup of cached atoms; see ``AtomTypeTable``.
@MainActor
class AnyAtomTypeTable {}

/// Maps the keys of one atom type to nodes.
///
/// Keeping one typed table per atom type makes a lookup one hash of the atom's own key: no
/// `AnyHashable` boxing and no dynamic cast on the watch path. Atoms at the root (the common
/// case) are keyed by the atom's key alone; scoped atoms also by their scope.
@MainActor
final class AtomTypeTable<Node: Atom>: AnyAtomTypeTable {
    @exclusivity(unchecked) private var rootNodes: [Node.Key: AtomNode<Node>] = [:]
    @exclusivity(unchecked) private var scopedNodes: [NodeKey<Node.Key>: AtomNode<Node>] = [:]
    let names = AtomTypeNames(Node.self)
    let isKeepAlive = Node.self is any KeepAlive.Type
    /// Whether the atom type declares an effect; atoms without one skip effect bookkeeping.
    let hasEffect = Node.Effect.self != EmptyEffect.self

    func node(key: Node.Key, scope: ScopeKey?) -> AtomNode<Node>? {
        guard let scope else {
            return rootNodes[key]
        }
        return scopedNodes[NodeKey(key: key, scope: scope)]
    }

    func setNode(_ node: AtomNode<Node>?, key: Node.Key, scope: ScopeKey?) {
        if let scope {
            scopedNodes[NodeKey(key: key, scope: scope)] = node
        } else {
            rootNodes[key] = node
        }
    }
}
