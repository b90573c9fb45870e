extension StoreEngine {
    /// Captures every cached atom, the dependency graph and the subscriptions.
    func makeSnapshot() -> Snapshot {
        var items: [AtomIdentity: AnySnapshotItem] = [:]
        var dependencies: [AtomIdentity: Set<AtomIdentity>] = [:]
        var subscriptions: [AtomIdentity: Set<SourceLocation>] = [:]
        var identities: [NodeID: AtomIdentity] = [:]
        for case let node? in nodes.slots where !node.isTransient {
            let item = node.snapshotItem()
            items[item.identity] = item
            identities[node.id] = item.identity
        }
        for case let node? in nodes.slots where !node.isTransient {
            guard let identity = identities[node.id] else { continue }
            dependencies[identity] = Set(node.dependencies.compactMap { identities[$0] })
            if !node.subscriptions.isEmpty {
                subscriptions[identity] = Set(node.subscriptions.map(\.location))
            }
        }
        return Snapshot(items: items, dependencies: dependencies, subscriptions: subscriptions)
    }

    /// Hands the value of every cached atom a snapshot holds to its slot from `maker`, as a
    /// commit hands over the values it changed: a recorder starting on a store that already
    /// holds values takes them typed, through the slots that will take their later values.
    func captureValues(into maker: any CommitSlotMaker) {
        for case let node? in nodes.slots where !node.isTransient {
            _ = node.captureValue(into: maker)
        }
    }

    /// Brings back the values and dependency graph captured in a snapshot.
    ///
    /// Atoms released since are re-created with their captured values; dependencies that the
    /// restored graph no longer has are released when nothing else watches them; subscribers
    /// watching restored atoms are notified. Atoms not in the snapshot are left as they are.
    func restore(_ snapshot: Snapshot, location: SourceLocation?) {
        transact(.restore, location: location) {
            // One order every run, whatever order the snapshot's dictionary has: atoms
            // re-created in it get their numbers, and record their creation, in that order.
            let identities = snapshot.items.keys.sorted(by: AtomIdentity.precedes)
            var restored: [AtomIdentity: AnyAtomNode] = [:]
            for identity in identities {
                restored[identity] = snapshot.items[identity]!.restore(into: self)
            }
            let nodesInOrder = identities.compactMap { restored[$0] }.sorted { $0.id < $1.id }
            for node in nodesInOrder {
                let newDependencies = Set((snapshot.dependencies[node.identity] ?? []).compactMap { restored[$0]?.id })
                replaceDependencies(of: node, from: node.dependencies, to: newDependencies)
            }
            for node in nodesInOrder.sorted(by: { $0.serial < $1.serial }) {
                transaction.updated(node)
                queueSubscribers(of: node)
                // A restored atom that nothing watches any more is released at commit.
                transaction.addReleaseCandidate(node.id)
            }
        }
    }
}

extension StoreEngine {
    /// Sets cached atoms to seeded values; see ``AtomStore/restoreValues(from:fileID:line:)``.
    func restoreValues(from seeds: any AtomValueSeeds, location: SourceLocation) -> [AtomIdentity] {
        transact(.restore, location: location) {
            var restored: [AtomIdentity] = []
            for case let node? in nodes.slots where !node.isTransient {
                if node.takeSeed(from: seeds) {
                    node.terminate(in: self)
                    transaction.updated(node)
                    queueSubscribers(of: node)
                    restored.append(node.identity)
                }
            }
            return restored
        }
    }
}
