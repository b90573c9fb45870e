/// A context that can also watch atoms: it is told when a watched atom changes.
///
/// - SeeAlso: ``AtomTransactionContext``, ``AtomViewContext``, ``AtomTestContext``
@MainActor
public protocol AtomWatchableContext: AtomContext {
    /// The value of an atom, watching it from now on.
    ///
    /// The value is cached while anything watches the atom, and recomputed only when an atom it
    /// watches changes.
    ///
    /// - Parameter atom: An atom to watch.
    /// - Returns: The value associated with the atom.
    @discardableResult
    func watch<Node: Atom>(_ atom: Node) -> Node.Produced
}
