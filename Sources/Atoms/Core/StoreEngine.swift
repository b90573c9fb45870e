/// The state of one store: the node table, the dependency graph, and the open transaction.
///
/// Every public context operation is a transaction on the engine: it opens (nesting joins the
/// outer one), changes nodes and edges, and on commit releases unwatched atoms, reports the
/// transaction to observers, then runs effects and notifies subscribers.
@MainActor
final class StoreEngine {
    /// Node table indexed by ``NodeID``; `nil` slots are free.
    var nodes: [AnyAtomNode?] = []
    var freeSlots: [NodeID] = []
    var tables: [ObjectIdentifier: AnyAtomTypeTable] = [:]
    var nextSerial = 0
    let rootOverrides = OverrideContainer()
    let scopeKeys = ScopeKeyGenerator()
    var observers: [@MainActor (Snapshot) -> Void] = []
    var transactionObservers: [@MainActor (AtomTransaction) -> Void] = []

    // Transaction state.
    var transactionDepth = 0
    var transaction = OpenTransaction()
    var sequence = 0
    var releaseCandidates: [NodeID] = []
    var isRunningEffects = false
    /// Live scopes by key (weak), for restoring scoped atoms and notifying scope observers.
    var scopes: [ScopeKey: WeakScope] = [:]

    // Propagation state.
    var epoch = 0
    var isPropagating = false
    var pendingSources: [AnyAtomNode] = []

    nonisolated init() {}

    /// The typed table for an atom type, created on first use.
    func table<Node: Atom>(for type: Node.Type) -> AtomTypeTable<Node> {
        let id = ObjectIdentifier(type)
        if let table = tables[id] {
            return unsafeDowncast(table, to: AtomTypeTable<Node>.self)
        }
        let table = AtomTypeTable<Node>()
        tables[id] = table
        return table
    }

    /// The cached node of an atom in a context, if any.
    func existingNode<Node: Atom>(_ atom: Node, in store: StoreContext) -> AtomNode<Node>? {
        let scope = store.scope == nil ? nil : store.resolve(atom).scope
        return table(for: Node.self).nodes[NodeKey(key: atom.key, scope: scope)]
    }

    /// Reserves a slot for a new node.
    func allocateSlot() -> (NodeID, serial: Int) {
        nextSerial += 1
        if let slot = freeSlots.popLast() {
            return (slot, nextSerial)
        }
        nodes.append(nil)
        return (nodes.count - 1, nextSerial)
    }

    /// The cached node of an atom, creating and computing it when absent. During propagation a
    /// node whose dependencies changed but which has not been recomputed yet is brought up to
    /// date first, so a watch never returns a stale value.
    func node<Node: Atom>(for atom: Node, in store: StoreContext) -> AtomNode<Node> {
        let (scope, override, nodeStore) = store.resolve(atom)
        let table = table(for: Node.self)
        let key = NodeKey(key: atom.key, scope: scope)
        if let node = table.nodes[key] {
            if isPropagating && node.dirtyEpoch == epoch && node.doneEpoch != epoch {
                recompute(node)
            }
            return node
        }
        let (id, serial) = allocateSlot()
        let node = AtomNode(
            id: id, serial: serial, atom: atom, scope: scope,
            store: nodeStore, table: table, override: override
        )
        table.nodes[key] = node
        nodes[id] = node
        transaction.created(node)
        node.startEffect()
        node.value = node.produce(in: self)
        transaction.effects.append(.initialized(node))
        return node
    }

    /// Records the dependency edges a computation added and removed; dependencies it no longer
    /// watches become release candidates.
    func didCompute(_ node: AnyAtomNode, oldDependencies: Set<NodeID>) {
        if node.isTransient {
            return
        }
        if oldDependencies != node.dependencies {
            for id in oldDependencies where !node.dependencies.contains(id) {
                if let dependency = nodes[id] {
                    dependency.children.remove(node.id)
                    transaction.edgeRemoved(from: dependency, to: node)
                    releaseCandidates.append(id)
                }
            }
            for id in node.dependencies where !oldDependencies.contains(id) {
                if let dependency = nodes[id] {
                    transaction.edgeAdded(from: dependency, to: node)
                }
            }
        }
    }

    /// Records that `dependent` watches `dependency`.
    func addEdge(from dependency: AnyAtomNode, to dependent: AnyAtomNode) {
        if dependent.dependencies.insert(dependency.id).inserted {
            dependency.children.insert(dependent.id)
        }
    }
}

/// A scope held weakly by the store, so that a dropped scope stops observing.
struct WeakScope {
    weak var value: ScopeState?
}
