/// The identity of a node within its type table: the atom's key and scope.
struct NodeKey<Key: Hashable>: Hashable {
    let key: Key
    let scope: ScopeKey?
}

/// Per-type lookup of cached atoms; see ``AtomTypeTable``.
@MainActor
class AnyAtomTypeTable {}

/// Maps the keys of one atom type to nodes.
///
/// Keeping one typed table per atom type makes a lookup one hash of the atom's own key: no
/// `AnyHashable` boxing and no dynamic cast on the watch path.
@MainActor
final class AtomTypeTable<Node: Atom>: AnyAtomTypeTable {
    var nodes: [NodeKey<Node.Key>: AtomNode<Node>] = [:]
    let names = AtomTypeNames(Node.self)
    let isKeepAlive = Node.self is any KeepAlive.Type
}
