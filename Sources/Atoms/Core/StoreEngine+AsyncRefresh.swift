extension StoreEngine {
    /// Refreshes an async atom: ends its running work, starts it afresh (or takes the value an
    /// override gives now), waits for it to complete and, when the atom is cached, makes the
    /// result its value and propagates it.
    ///
    /// As upstream, a refresh that is superseded while it waits (a newer refresh, a
    /// recomputation because a dependency changed, the atom's release) or whose task is
    /// cancelled commits nothing: no value is written, no subscriber told, and the caller gets
    /// what the refresh produced (`.suspending` for a phase atom whose work was cancelled).
    /// While it waits, the atom takes no update from the dependencies it watched before: only
    /// those the refresh itself watches can supersede it. An uncached atom's fresh value is
    /// returned without caching, as `read` does.
    func refresh<Node: AsyncAtom>(_ atom: Node, in store: StoreContext, location: SourceLocation?) async -> Node.Produced {
        guard let node = existingNode(atom, in: store) else {
            return await refreshUncached(atom, in: store)
        }
        node.terminate(in: self)
        let generation = node.generation
        let start = timer == nil ? 0 : MonotonicClock.now()
        node.refreshWatches = []
        let value = await refreshedValue(of: node)
        guard node.isAlive, node.generation == generation, !Task.isCancelled else {
            if node.generation == generation {
                node.refreshWatches = nil
            }
            timer?.taskEnded(node, start: start, committed: false)
            return value
        }
        let watched = node.refreshWatches ?? []
        node.refreshWatches = nil
        transact(.refresh, origin: node, location: location) {
            timer?.taskEnded(node, start: start, committed: true)
            // Dependencies are what the refresh watched.
            let oldDependencies = node.dependencies
            node.dependencies = watched
            didCompute(node, oldDependencies: oldDependencies)
            node.setValue(value)
            valueDidChange(node)
        }
        return value
    }

    /// Runs the atom's refresh producer, or takes the override's value, and waits until the
    /// value is complete; the atom kind manages an overridden value as a produced one.
    private func refreshedValue<Node: AsyncAtom>(of node: AtomNode<Node>) async -> Node.Produced {
        let producer = node.atom.refreshProducer
        let context = AtomProducerContext<Node.Produced>(store: node.store, node: node)
        let value = if let override = node.override {
            override(node.atom)
        } else {
            await producer.compute(context)
        }
        await producer.complete?(value, context)
        return value
    }

    /// A fresh value for an atom nothing caches: dependencies are read, not watched.
    private func refreshUncached<Node: AsyncAtom>(_ atom: Node, in store: StoreContext) async -> Node.Produced {
        let (scope, overrides, nodeStore) = store.resolve(atom)
        // Not alive: its context's watches only read, so the graph never points at it.
        let node = makeNode(
            atom, scope: scope, indexKey: NodeIndex.key(for: atom.key, of: Node.self, scope: scope),
            store: nodeStore, overrides: overrides, lifetime: .detached
        )
        let value = await refreshedValue(of: node)
        node.terminate(in: self)
        return value
    }
}
