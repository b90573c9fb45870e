extension StoreEngine {
    /// Refreshes an async atom: cancels its running work, starts it afresh, waits for it to
    /// complete and, when the atom is cached, makes the result its value and propagates it.
    ///
    /// The refreshed value wins over a recomputation that happened while the refresh awaited
    /// (its pending result is dropped). An uncached atom's fresh value is returned without
    /// caching, as `read` does.
    func refresh<Node: AsyncAtom>(_ atom: Node, in store: StoreContext, location: SourceLocation?) async -> Node.Produced {
        guard let node = existingNode(atom, in: store) else {
            return await refreshUncached(atom, in: store)
        }
        node.terminate(in: self)
        let generation = node.generation
        node.refreshWatches = []
        let value: Node.Produced
        if let override = node.override {
            value = override(atom)
        } else {
            value = await atom.refreshProducer.compute(AtomProducerContext(store: node.store, node: node))
        }
        let watched = node.refreshWatches ?? []
        node.refreshWatches = nil
        guard node.isAlive else {
            return value
        }
        transact(.refresh, origin: node, location: location) {
            if node.generation == generation {
                // Dependencies are what the refresh watched.
                let oldDependencies = node.dependencies
                node.dependencies = watched
                didCompute(node, oldDependencies: oldDependencies)
            }
            node.terminate(in: self)
            node.setValue(value)
            valueDidChange(node)
        }
        return value
    }

    /// A fresh value for an atom nothing caches: dependencies are read, not watched.
    private func refreshUncached<Node: AsyncAtom>(_ atom: Node, in store: StoreContext) async -> Node.Produced {
        let (scope, override, nodeStore) = store.resolve(atom)
        if let override {
            return override(atom)
        }
        let node = AtomNode(
            id: -1, serial: 0, atom: atom, scope: scope,
            indexKey: NodeIndex.key(for: atom.key, of: Node.self, scope: scope), store: nodeStore, info: typeInfo(for: Node.self), override: nil
        )
        node.isTransient = true
        // Not alive: its context's watches only read, so the graph never points at it.
        node.isAlive = false
        let value = await atom.refreshProducer.compute(AtomProducerContext(store: nodeStore, node: node))
        node.terminate(in: self)
        return value
    }
}
