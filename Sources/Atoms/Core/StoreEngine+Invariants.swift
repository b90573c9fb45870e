extension StoreEngine {
    /// Checks that the graph is consistent: every dependency edge has its child edge and back,
    /// every node is registered under its own slot and in the index, and subscribers point at
    /// live nodes.
    ///
    /// - Returns: A description of each violation; empty when the store is consistent.
    func invariantViolations() -> [String] {
        var violations: [String] = []
        for (slot, node) in nodes.slots.enumerated() {
            guard let node else {
                continue
            }
            if node.id != slot {
                violations.append("\(node.identity) of slot \(node.id) sits in slot \(slot)")
            }
            if node.isTransient {
                violations.append("transient node \(node.id) left in the table")
            } else if !nodes.index.contains(node) {
                violations.append("\(node.identity) is not in the index")
            }
            for id in node.dependencies {
                guard let dependency = nodes[id] else {
                    violations.append("\(node.identity) depends on freed slot \(id)")
                    continue
                }
                if !dependency.children.contains(node.id) {
                    violations.append("\(dependency.identity) lacks child \(node.identity)")
                }
            }
            for id in node.children {
                guard let child = nodes[id] else {
                    violations.append("\(node.identity) has freed child slot \(id)")
                    continue
                }
                if !child.dependencies.contains(node.id) {
                    violations.append("\(child.identity) lacks dependency \(node.identity)")
                }
            }
            for subscriber in node.subscriptions {
                if !subscriber.nodes.contains(node.id) {
                    violations.append("subscriber \(subscriber.id) does not list \(node.identity)")
                }
            }
        }
        for slot in nodes.freeSlots where nodes[slot] != nil {
            violations.append("free slot \(slot) is occupied")
        }
        return violations
    }
}
