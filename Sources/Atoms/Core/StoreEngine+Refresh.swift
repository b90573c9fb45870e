extension StoreEngine {
    /// Runs a ``Refreshable`` atom's own refresh and, when the atom is cached, stores the new
    /// value and propagates it; a refresh whose task was cancelled meanwhile commits nothing.
    func refresh<Node: Refreshable>(_ atom: Node, in store: StoreContext, location: SourceLocation?) async -> Node.Produced {
        let value = await atom.refresh(context: AtomCurrentContext(store: store))
        if !Task.isCancelled, let node = existingNode(atom, in: store) {
            transact(.refresh, origin: node, location: location) {
                node.setValue(value)
                valueDidChange(node)
            }
        }
        return value
    }
}

extension StoreEngine {
    /// Sets a value delivered after its computation returned (an async result) and propagates
    /// it, as a transaction of its own. `taskStart` is when the task that produced it started
    /// (0 when the store does not time its work).
    func deliver(_ value: Any, to node: AnyAtomNode, taskStart: UInt64) {
        transact(.asyncResult, origin: node) {
            timer?.taskEnded(node, start: taskStart, committed: true)
            node.assign(value)
            valueDidChange(node)
        }
    }
}
