/// An atom derived from a base atom by a modifier, such as `CounterAtom().changes`.
///
/// Its value is the modifier's output; it watches the base atom, so the graph shows the edge.
public struct ModifiedAtom<Node: Atom, Modifier: AtomModifier>: Atom where Node.Produced == Modifier.Base {
    /// The modifier's output type.
    public typealias Produced = Modifier.Produced

    /// Identifies the modified atom by the base atom's key and the modifier's key.
    public struct Key: Hashable, Sendable {
        fileprivate let atomKey: Node.Key
        fileprivate let modifierKey: Modifier.Key

        fileprivate init(atomKey: Node.Key, modifierKey: Modifier.Key) {
            self.atomKey = atomKey
            self.modifierKey = modifierKey
        }
    }

    private let atom: Node
    private let modifier: Modifier

    init(atom: Node, modifier: Modifier) {
        self.atom = atom
        self.modifier = modifier
    }

    /// The atom the modifier applies to (a replay overrides it with its phase).
    package var base: Node {
        atom
    }

    /// The base atom's key combined with the modifier's key.
    public var key: Key {
        Key(atomKey: atom.key, modifierKey: modifier.key)
    }

    /// The modifier's producer over the base atom.
    public var producer: AtomProducer<Produced> {
        modifier.producer(atom: atom)
    }
}

extension ModifiedAtom: Scoped where Node: Scoped {
    /// The base atom's scope.
    public var scopeID: Node.ScopeID {
        atom.scopeID
    }
}

extension ModifiedAtom: AsyncAtom where Node: AsyncAtom, Modifier: AsyncAtomModifier {
    /// The modifier's refresh producer over the base atom.
    public var refreshProducer: AtomRefreshProducer<Produced> {
        modifier.refreshProducer(atom: atom)
    }
}

extension ModifiedAtom.Key: AtomKeyDescribing {
    var keyDescription: String? {
        let base = AtomKeyDescription.describe(atomKey, isAtomItself: Node.Key.self == Node.self)
        let modifier = (modifierKey as? any AtomKeyDescribing)?.keyDescription
        switch (base, modifier) {
        case (nil, nil): return nil
        case (let base?, nil): return base
        case (nil, let modifier?): return modifier
        case (let base?, let modifier?): return "\(base), \(modifier)"
        }
    }
}
