extension StoreEngine {
    /// Makes `value` a cached atom's value as a finished task's result arrives: in one
    /// transaction of `cause` (an async result or a refresh), dependents recomputed and
    /// subscribers told. A replay delivers recorded results this way, so that no task runs.
    ///
    /// - Returns: Whether the atom was cached (nothing happens otherwise).
    func deliver<Node: Atom>(_ value: Node.Produced, to atom: Node, in store: StoreContext, cause: AtomTransaction.Cause, location: SourceLocation?) -> Bool {
        guard let node = existingNode(atom, in: store) else {
            return false
        }
        guard !transactionState.writesAreHeld else {
            transactionState.deferWrite { [self] in _ = deliver(value, to: atom, in: store, cause: cause, location: location) }
            return true
        }
        transact(cause, origin: node, location: location) {
            node.setValue(value)
            valueDidChange(node)
        }
        return true
    }
}
