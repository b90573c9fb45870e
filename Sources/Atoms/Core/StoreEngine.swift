/// The state of one store: the node table, the dependency graph, and the open transaction.
///
/// Every public context operation is a transaction on the engine: it opens (nesting joins the
/// outer one), changes nodes and edges, and on commit releases unwatched atoms, reports the
/// transaction to observers, then runs effects and notifies subscribers.
@MainActor
final class StoreEngine {
    /// Node table indexed by ``NodeID``; `nil` slots are free.
    @exclusivity(unchecked) var nodes: [AnyAtomNode?] = []
    @exclusivity(unchecked) var freeSlots: [NodeID] = []
    @exclusivity(unchecked) var index = NodeIndex()
    @exclusivity(unchecked) var typeInfos: [ObjectIdentifier: AnyObject] = [:]
    /// The type info asked for last: a family's atoms are usually created one after another.
    @exclusivity(unchecked) private var lastTypeInfo: (type: ObjectIdentifier, info: AnyObject)?
    @exclusivity(unchecked) var nextSerial = 0
    let rootOverrides = OverrideContainer()
    let scopeKeys = ScopeKeyGenerator()
    @exclusivity(unchecked) var observers: [@MainActor (Snapshot) -> Void] = []
    @exclusivity(unchecked) var transactionObservers: [@MainActor (AtomTransaction) -> Void] = []
    /// The package's own observers (the journal recorder), called before the public ones.
    @exclusivity(unchecked) var commitObservers: [@MainActor (CommittedTransaction) -> Void] = []

    // Transaction state.
    @exclusivity(unchecked) var transactionDepth = 0
    /// Above zero while a write would land inside another transaction's commit or
    /// computation (a commit releasing atoms and telling the recorder, an `onTermination`
    /// handler): writes are then queued in ``deferredWrites`` and run as transactions of their
    /// own, in order, once the outermost commit is done.
    @exclusivity(unchecked) var writesDeferred = 0
    /// Set from the moment the outermost transaction starts committing until it is finished.
    @exclusivity(unchecked) var isCommitting = false
    @exclusivity(unchecked) var deferredWrites: [(write: @MainActor () -> Void, fromEffect: Bool)] = []
    @exclusivity(unchecked) var transaction = OpenTransaction()
    @exclusivity(unchecked) var sequence = 0
    @exclusivity(unchecked) var releaseCandidates: [NodeID] = []
    @exclusivity(unchecked) var isRunningEffects = false
    /// Live scopes by key (weak), for restoring scoped atoms and notifying scope observers.
    @exclusivity(unchecked) var scopes: [ScopeKey: WeakScope] = [:]

    /// Whether transactions keep lists of what changed (someone observes transactions or a
    /// scope observes its atoms); otherwise only a change count is kept.
    @exclusivity(unchecked) var recordsChanges = false
    /// Recorded values that atoms take when first created; see ``AtomValueSeeds``.
    @exclusivity(unchecked) var seeds: (any AtomValueSeeds)? {
        didSet { hasSeeds = seeds != nil }
    }
    /// Whether ``seeds`` is set; read on every node creation, where copying the existential
    /// out to test it would cost a retain and a release.
    @exclusivity(unchecked) private(set) var hasSeeds = false
    /// Times transactions while someone observes timings; `nil` (costing a test of it) otherwise.
    @exclusivity(unchecked) var timer: TransactionTimer?
    /// How many atom computations are nested right now.
    @exclusivity(unchecked) var computeDepth = 0

    // Propagation state.
    @exclusivity(unchecked) var epoch = 0
    @exclusivity(unchecked) var isPropagating = false
    @exclusivity(unchecked) var pendingSources: [AnyAtomNode] = []

    nonisolated init() {}

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
        return index.node(key: atom.key, of: Node.self, scope: scope)
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
        let (scope, overrides, nodeStore) = store.resolve(atom)
        let indexKey = NodeIndex.key(for: atom.key, of: Node.self, scope: scope)
        if let node = index.node(at: indexKey, key: atom.key, of: Node.self) {
            if isPropagating && node.dirtyEpoch == epoch && node.doneEpoch != epoch {
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
        let (id, serial) = lifetime == .detached ? (-1, 0) : allocateSlot()
        let node = AtomNode(
            id: id, serial: serial, atom: atom, scope: scope, indexKey: indexKey,
            store: store, info: typeInfo(for: Node.self), overrides: overrides
        )
        switch lifetime {
        case .cached:
            index.insert(node)
            nodes[id] = node
            transaction.created(node)
        case .transient:
            node.isTransient = true
            nodes[id] = node
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
            // In node order, so that edges and releases come in the same order every run.
            for id in oldDependencies.sorted() where !node.dependencies.contains(id) {
                if let dependency = nodes[id] {
                    dependency.children.remove(node.id)
                    transaction.edgeRemoved(from: dependency, to: node)
                    releaseCandidates.append(id)
                }
            }
            for id in node.dependencies.sorted() where !oldDependencies.contains(id) {
                if let dependency = nodes[id] {
                    transaction.edgeAdded(from: dependency, to: node)
                }
            }
        }
    }

    /// Runs an atom computation, moving to a fresh stack when the current one runs low (the
    /// check is a comparison against a thread-local bound, cheap enough for every level).
    func guardingStack<T>(_ body: () -> T) -> T {
        computeDepth += 1
        defer { computeDepth -= 1 }
        return StackGuard.run(body)
    }

    /// Records that `dependent` watches `dependency`.
    func addEdge(from dependency: AnyAtomNode, to dependent: AnyAtomNode) {
        dependent.refreshWatches?.insert(dependency.id)
        if dependent.dependencies.insert(dependency.id).inserted {
            dependency.children.insert(dependent.id)
        }
    }
}

/// A scope held weakly by the store, so that a dropped scope stops observing.
struct WeakScope {
    weak var value: ScopeState?
}

// Exclusivity: the engine's hot stored properties are marked `@exclusivity(unchecked)`. Every
// access happens on the main actor, and the engine never hands out `inout` access to them
// across calls into user code, so the dynamic checks (a thread-local access set per
// mutation) would only cost time on the commit path.
