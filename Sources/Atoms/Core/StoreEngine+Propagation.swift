extension StoreEngine {
    /// Records that a node's value changed: its effect's `updated` event and its subscribers
    /// are queued, and every node downstream is brought up to date in topological order, each
    /// recomputed at most once.
    func valueDidChange(_ node: AnyAtomNode) {
        transaction.updated(node)
        queueSubscribers(of: node)
        guard !node.children.isEmpty else {
            return
        }
        guard propagation.queue(node) else {
            // A write made while dependents are being recomputed is propagated right after.
            return
        }
        var position = 0
        while let source = propagation.source(at: position) {
            propagate(from: source)
            position += 1
        }
        propagation.finish()
    }

    /// Recomputes one node during propagation and passes its change on when it propagates.
    func recompute(_ node: AnyAtomNode) {
        node.doneEpoch = propagation.epoch
        if node.recompute(in: self) {
            transaction.updated(node)
            queueSubscribers(of: node)
            markChildrenDirty(of: node)
        }
    }

    /// Marks the nodes that watch `node` for recomputation in this pass; a node being
    /// refreshed takes updates only from what the refresh has watched.
    private func markChildrenDirty(of node: AnyAtomNode) {
        let epoch = propagation.epoch
        for child in node.children {
            guard let childNode = nodes[child] else {
                continue
            }
            if let watches = childNode.refreshWatches, !watches.contains(node.id) {
                continue
            }
            childNode.dirtyEpoch = epoch
        }
    }

    private func propagate(from source: AnyAtomNode) {
        let epoch = propagation.nextEpoch()
        markChildrenDirty(of: source)
        for id in topologicalOrder(below: source, epoch: epoch) {
            guard let node = nodes[id], node.dirtyEpoch == epoch, node.doneEpoch != epoch else {
                continue
            }
            recompute(node)
        }
    }

    /// The nodes downstream of `source`, each after all of its downstream dependencies.
    ///
    /// An iterative depth-first walk (reverse post-order), so a graph of any depth is ordered
    /// without recursion.
    /// - Complexity: O(n + e) for the n nodes and e edges below `source`.
    private func topologicalOrder(below source: AnyAtomNode, epoch: Int) -> [NodeID] {
        var postOrder: [NodeID] = []
        var stack: [(id: NodeID, children: [NodeID], next: Int)] = []
        source.visitEpoch = epoch
        // Children in node order, not the set's hash order (which differs between processes):
        // the same program updates its atoms in the same order every run.
        stack.append((source.id, source.children.sorted(), 0))
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next < stack[top].children.count {
                let child = stack[top].children[stack[top].next]
                stack[top].next += 1
                if let node = nodes[child], node.visitEpoch != epoch {
                    node.visitEpoch = epoch
                    stack.append((child, node.children.sorted(), 0))
                }
            } else {
                postOrder.append(stack[top].id)
                stack.removeLast()
            }
        }
        postOrder.removeLast()  // the source itself
        return postOrder.reversed()
    }

    /// Queues the node's subscribers for notification after commit.
    func queueSubscribers(of node: AnyAtomNode) {
        var count = 0
        for subscriber in node.subscriptions {
            transaction.queueSubscriber(subscriber)
            count += 1
        }
        if count > 0, let timer {
            timer.notified(node, count: count)
        }
    }
}
