extension StoreEngine {
    /// `watch` from inside an atom's computation: the atom becomes a dependency of `dependent`.
    func watch<Node: Atom>(_ atom: Node, dependent: AnyAtomNode, in store: StoreContext) -> Node.Produced {
        begin(.initialize)
        defer { commit() }
        let node = node(for: atom, in: store)
        addEdge(from: node, to: dependent)
        return node.currentValue
    }

    /// `watch` from a subscriber (view or test context), located at the line that watched, or
    /// at the subscriber when the call came through the protocol and has no line.
    func watch<Node: Atom>(_ atom: Node, subscriber: SubscriberState, in store: StoreContext, location: SourceLocation?) -> Node.Produced {
        begin(.initialize, location: location ?? subscriber.location)
        let node = node(for: atom, in: store)
        if node.subscriptions.insert(subscriber) {
            subscriber.nodes.insert(node.id)
            transaction.subscriptionAdded(node, subscriber.location)
        }
        let value = node.currentValue
        commit()
        // Effects run at commit may have changed the value; return the latest.
        return nodes[node.id] === node ? node.currentValue : value
    }

    /// `read`: the cached value, or a value computed without caching it.
    func read<Node: Atom>(_ atom: Node, in store: StoreContext) -> Node.Produced {
        if let node = existingNode(atom, in: store) {
            if propagation.isStale(node) {
                recompute(node)
            }
            return node.currentValue
        }
        return transact(.initialize) {
            let (scope, overrides, nodeStore) = store.resolve(atom)
            let node = makeNode(
                atom, scope: scope, indexKey: NodeIndex.key(for: atom.key, of: Node.self, scope: scope),
                store: nodeStore, overrides: overrides, lifetime: .transient
            )
            let value = node.produce(in: self)
            // The transient node's dependencies lose it as a child; those it alone kept are released.
            node.dependencies.forEachInNodeOrder { dependency in
                if let dependency = nodes[dependency] {
                    removeEdge(from: dependency, to: node)
                }
            }
            node.isAlive = false
            node.terminate(in: self)
            nodes.remove(node)
            return value
        }
    }

    /// `lookup`: the cached value only, with no side effects.
    func lookup<Node: Atom>(_ atom: Node, in store: StoreContext) -> Node.Produced? {
        existingNode(atom, in: store)?.value
    }

    /// `set`: replaces a cached state; ignored when the atom is not cached.
    func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node, in store: StoreContext, location: SourceLocation?) {
        guard let node = existingNode(atom, in: store) else {
            return
        }
        guard !transactionState.writesAreHeld else {
            transactionState.deferWrite { [self] in set(value, for: atom, in: store, location: location) }
            return
        }
        transact(.set, origin: node, location: location) {
            node.setValue(value)
            valueDidChange(node)
        }
    }

    /// `modify`: mutates a cached state in place, then propagates once.
    func modify<Node: StateAtom>(_ atom: Node, in store: StoreContext, location: SourceLocation?, body: (inout Node.Produced) -> Void) {
        guard let node = existingNode(atom, in: store) else {
            return
        }
        guard !transactionState.writesAreHeld else {
            // Read and mutate now, set later: the write is its own transaction.
            var value = node.currentValue
            body(&value)
            transactionState.deferWrite { [self] in set(value, for: atom, in: store, location: location) }
            return
        }
        transact(.modify, origin: node, location: location) {
            // Read, mutate a copy, set, as upstream: reads inside `body` (of this atom or of
            // atoms derived from it) see the value before the change.
            var value = node.currentValue
            body(&value)
            node.setValue(value)
            valueDidChange(node)
        }
    }

    /// `reset`: a ``Resettable`` atom runs its own reset; any other cached atom recomputes its
    /// own value (its dependencies keep theirs) and propagates.
    func reset<Node: Atom>(_ atom: Node, in store: StoreContext, location: SourceLocation?) {
        guard !transactionState.writesAreHeld else {
            transactionState.deferWrite { [self] in reset(atom, in: store, location: location) }
            return
        }
        if let resettable = atom as? any Resettable {
            transact(.reset, origin: existingNode(atom, in: store), location: location) {
                resettable.runReset(context: AtomCurrentContext(store: store))
            }
            return
        }
        guard let node = existingNode(atom, in: store) else {
            return
        }
        transact(.reset, origin: node, location: location) {
            node.setValue(node.produce(in: self))
            valueDidChange(node)
        }
    }

    /// Removes a subscriber's watch of an atom.
    func unwatch<Node: Atom>(_ atom: Node, subscriber: SubscriberState, in store: StoreContext) {
        guard let node = existingNode(atom, in: store), node.subscriptions.contains(subscriberID: subscriber.id) else {
            return
        }
        transact(.release, origin: node, location: subscriber.location) {
            subscriber.nodes.remove(node.id)
            unsubscribe(subscriberID: subscriber.id, from: node, location: subscriber.location)
        }
    }
}
