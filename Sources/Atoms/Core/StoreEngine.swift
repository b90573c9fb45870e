/// The state of one store: the node table, the dependency graph, and the open transaction.
///
/// Every public context operation is a transaction on the engine: it opens (nesting joins the
/// outer one), changes nodes and edges, and on commit releases unwatched atoms, reports the
/// transaction to observers, then runs effects and notifies subscribers.
@MainActor
final class StoreEngine {
    // Each part of the engine's state is a type of its own whose storage only its operations
    // change; the engine holds them in `@exclusivity(unchecked)` vars (see the end of the file).

    /// The nodes, by slot and by type, key and scope.
    @exclusivity(unchecked) var nodes = NodeTable()
    /// The facts about each atom type seen, by type.
    @exclusivity(unchecked) private var typeInfos: [ObjectIdentifier: AnyObject] = [:]
    /// The type info asked for last: a family's atoms are usually created one after another.
    @exclusivity(unchecked) private var lastTypeInfo: (type: ObjectIdentifier, info: AnyObject)?
    let rootOverrides = OverrideContainer()
    /// The live scopes and their keys.
    @exclusivity(unchecked) var scopes = ScopeTable()
    /// Who observes commits, and the timer of transactions.
    @exclusivity(unchecked) var observers = ObserverRegistry()
    /// What the open transaction changed.
    @exclusivity(unchecked) var transaction = OpenTransaction()
    /// Nesting, committing, and the writes waiting for a commit to end.
    @exclusivity(unchecked) var transactionState = TransactionState()
    /// The propagation pass in progress.
    @exclusivity(unchecked) var propagation = PropagationState()
    /// Recorded values that atoms take when first created; see ``AtomValueSeeds``.
    @exclusivity(unchecked) private(set) var seeds: (any AtomValueSeeds)? {
        didSet { hasSeeds = seeds != nil }
    }
    /// Whether ``seeds`` is set; read on every node creation, where copying the existential
    /// out to test it would cost a retain and a release.
    @exclusivity(unchecked) private(set) var hasSeeds = false

    nonisolated init() {}

    /// Times transactions while someone observes timings; `nil` otherwise.
    var timer: TransactionTimer? {
        @inline(__always) get { observers.timer }
    }

    /// Makes atoms start from recorded values from now on; see ``AtomStore/seed(with:)``.
    func seed(with seeds: any AtomValueSeeds) {
        self.seeds = seeds
    }

    /// The facts about an atom type, computed on first use.
    func typeInfo<Node: Atom>(for type: Node.Type) -> AtomTypeInfo<Node> {
        let id = ObjectIdentifier(type)
        if let last = lastTypeInfo, last.type == id {
            return unsafeDowncast(last.info, to: AtomTypeInfo<Node>.self)
        }
        let info = typeInfos[id].map { unsafeDowncast($0, to: AtomTypeInfo<Node>.self) } ?? AtomTypeInfo<Node>()
        typeInfos[id] = info
        lastTypeInfo = (id, info)
        return info
    }

    /// The cached node of an atom in a context, if any.
    func existingNode<Node: Atom>(_ atom: Node, in store: StoreContext) -> AtomNode<Node>? {
        let scope = store.scope == nil ? nil : store.resolve(atom).scope
        return nodes.index.node(key: atom.key, of: Node.self, scope: scope)
    }

    /// The cached node of an atom, creating and computing it when absent. During propagation a
    /// node whose dependencies changed but which has not been recomputed yet is brought up to
    /// date first, so a watch never returns a stale value.
    func node<Node: Atom>(for atom: Node, in store: StoreContext) -> AtomNode<Node> {
        let (scope, overrides, nodeStore) = store.resolve(atom)
        let indexKey = NodeIndex.key(for: atom.key, of: Node.self, scope: scope)
        if let node = nodes.index.node(at: indexKey, key: atom.key, of: Node.self) {
            if propagation.isStale(node) {
                recompute(node)
            }
            return node
        }
        let node = makeNode(atom, scope: scope, indexKey: indexKey, store: nodeStore, overrides: overrides, lifetime: .cached)
        node.startEffect()
        node.setValue(node.produce(in: self))
        if hasSeeds, let seeds {
            _ = node.takeSeed(from: seeds)
        }
        transaction.queueEffect(.initialized(node), of: node)
        return node
    }

    /// How a node made by ``makeNode(_:scope:indexKey:store:overrides:lifetime:)`` lives.
    enum NodeLifetime {
        /// Cached: in the node table and the index, reported as created by the transaction.
        case cached
        /// In the node table only, for the one computation of an uncached `read`, whose
        /// watches then find it; the caller removes it.
        case transient
        /// In no table and never alive: an uncached refresh, whose watches only read.
        case detached
    }

    /// Makes a node for an atom: the one place nodes are created.
    func makeNode<Node: Atom>(
        _ atom: Node, scope: ScopeKey?, indexKey: NodeIndexKey, store: StoreContext,
        overrides: OverrideContainer, lifetime: NodeLifetime
    ) -> AtomNode<Node> {
        let (id, serial) = lifetime == .detached ? (-1, 0) : nodes.allocateSlot()
        let node = AtomNode(
            id: id, serial: serial, atom: atom, scope: scope, indexKey: indexKey,
            store: store, info: typeInfo(for: Node.self), overrides: overrides
        )
        switch lifetime {
        case .cached:
            nodes.insert(node)
            transaction.created(node)
        case .transient:
            node.isTransient = true
            nodes.insert(node)
        case .detached:
            node.isTransient = true
            node.isAlive = false
        }
        return node
    }

    /// Records the dependency edges a computation added and removed; dependencies it no longer
    /// watches become release candidates.
    func didCompute(_ node: AnyAtomNode, oldDependencies: Set<NodeID>) {
        if node.isTransient {
            return
        }
        if oldDependencies != node.dependencies {
            replaceDependencies(of: node, from: oldDependencies, to: node.dependencies)
        }
    }

    /// Records that `dependent` watches `dependency`, while it computes (``didCompute(_:oldDependencies:)``
    /// records the edges it added once it is done).
    func addEdge(from dependency: AnyAtomNode, to dependent: AnyAtomNode) {
        dependent.refreshWatches?.insert(dependency.id)
        if dependent.dependencies.insert(dependency.id).inserted {
            dependency.children.insert(dependent.id)
        }
    }

    // The edges of the graph change through these two functions only (after a computation,
    // a restore, a release, a transient read), so that edges, and the releases they lead
    // to, come in one order: node order, removed edges before added ones.

    /// Makes `node` depend on `new` instead of `old`: the edges removed, then those added,
    /// each in node order, recorded in the transaction.
    func replaceDependencies(of node: AnyAtomNode, from old: Set<NodeID>, to new: Set<NodeID>) {
        node.dependencies = new
        for id in old.sorted() where !new.contains(id) {
            if let dependency = nodes[id] {
                removeEdge(from: dependency, to: node)
            }
        }
        for id in new.sorted() where !old.contains(id) {
            if let dependency = nodes[id] {
                dependency.children.insert(node.id)
                transaction.edgeAdded(from: dependency, to: node)
            }
        }
    }

    /// Removes the edge from `dependency` to `dependent` (which no longer watches it, or goes
    /// away), recorded unless `dependent` is transient; the dependency becomes a candidate
    /// for release.
    func removeEdge(from dependency: AnyAtomNode, to dependent: AnyAtomNode) {
        dependency.children.remove(dependent.id)
        if !dependent.isTransient {
            transaction.edgeRemoved(from: dependency, to: dependent)
        }
        transaction.addReleaseCandidate(dependency.id)
    }
}

// Exclusivity: the engine's hot stored properties are marked `@exclusivity(unchecked)`. Every
// access happens on the main actor, and the engine never hands out `inout` access to them
// across calls into user code, so the dynamic checks (a thread-local access set per
// mutation) would only cost time on the commit path.
