extension StoreEngine {
    /// Releases, at commit, every candidate that nothing watches any more, cascading up to the
    /// atoms that only it watched. Iterative, so a chain of any length is released.
    func releaseUnwatchedNodes() {
        while let id = transaction.popReleaseCandidate() {
            guard let node = nodes[id], node.children.isEmpty, node.subscriptions.isEmpty,
                !node.isKeepAlive
            else {
                continue
            }
            release(node)
        }
    }

    private func release(_ node: AnyAtomNode) {
        node.isAlive = false
        node.terminate(in: self)
        node.dependencies.forEachInNodeOrder { id in
            if let dependency = nodes[id] {
                removeEdge(from: dependency, to: node)
            }
        }
        nodes.remove(node)
        transaction.released(node)
    }

    /// Removes one subscriber's watch of a node.
    func unsubscribe(subscriberID: Int, from node: AnyAtomNode, location: SourceLocation) {
        guard node.subscriptions.remove(subscriberID: subscriberID) else {
            return
        }
        transaction.subscriptionRemoved(node, location)
        transaction.addReleaseCandidate(node.id)
    }

    /// Removes every watch of a subscriber that went away.
    func unsubscribeAll(subscriberID: Int, nodes ids: Set<NodeID>, location: SourceLocation) {
        guard !ids.isEmpty else {
            return
        }
        transact(.release, location: location) {
            for id in ids.sorted() {
                if let node = nodes[id] {
                    unsubscribe(subscriberID: subscriberID, from: node, location: location)
                }
            }
        }
    }
}
