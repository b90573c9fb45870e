/// Facts about one atom type, computed once per store and shared by its nodes.
@MainActor
final class AtomTypeInfo<Node: Atom> {
    let names = AtomTypeNames(Node.self)
    let isKeepAlive = Node.self is any KeepAlive.Type
    /// Whether the atom type declares an effect; atoms without one skip effect bookkeeping.
    let hasEffect = Node.Effect.self != EmptyEffect.self
}
