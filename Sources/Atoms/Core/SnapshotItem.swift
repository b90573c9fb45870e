/// One atom captured in a snapshot: the atom itself and its value. Immutable.
class AnySnapshotItem {
    let identity: AtomIdentity

    init(identity: AtomIdentity) {
        self.identity = identity
    }

    /// The captured value, type-erased.
    var anyValue: Any { fatalError("abstract") }

    /// Puts the captured value back into the store, creating the node when the atom was
    /// released since; returns the node.
    @MainActor
    func restore(into engine: StoreEngine) -> AnyAtomNode { fatalError("abstract") }
}

/// An atom of a concrete type captured in a snapshot.
final class SnapshotItem<Node: Atom>: AnySnapshotItem {
    let atom: Node
    let value: Node.Produced
    let scope: ScopeKey?

    init(atom: Node, value: Node.Produced, scope: ScopeKey?, names: AtomTypeNames) {
        self.atom = atom
        self.value = value
        self.scope = scope
        super.init(identity: AtomIdentity(atom, scope: scope, names: names))
    }

    override var anyValue: Any { value as Any }

    @MainActor
    override func restore(into engine: StoreEngine) -> AnyAtomNode {
        let indexKey = NodeIndex.key(for: atom.key, of: Node.self, scope: scope)
        if let node = engine.nodes.index.node(at: indexKey, key: atom.key, of: Node.self) {
            node.setValue(value)
            return node
        }
        let store = StoreContext(engine: engine, scope: scope.flatMap { engine.scopes.state(for: $0) })
        let node = engine.makeNode(atom, scope: scope, indexKey: indexKey, store: store, overrides: store.overrides, lifetime: .cached)
        node.setValue(value)
        return node
    }
}
