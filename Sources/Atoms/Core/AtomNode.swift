/// The index of a node in the store's node table.
typealias NodeID = Int

/// One cached atom in the store: its place in the dependency graph and its subscriptions.
///
/// Graph edges are kept on both ends (`dependencies` ⇄ `children`) so that propagation walks
/// down and release walks up without searching; ``StoreEngine/checkInvariants()`` verifies the
/// symmetry in tests.
@MainActor
class AnyAtomNode {
    /// The slot in the store's node table.
    let id: NodeID
    /// Increases with every node the store creates; orders nodes deterministically.
    let serial: Int
    /// The scope the atom is stored in (`nil` at the root).
    let scope: ScopeKey?
    /// Where the node is filed in the store's index.
    let indexKey: NodeIndexKey
    /// The next node filed under the same index key (a hash collision).
    var nextInBucket: AnyAtomNode?
    /// Nodes this node watched during its last computation.
    @exclusivity(unchecked) var dependencies: Set<NodeID> = []
    /// Nodes that watch this node.
    @exclusivity(unchecked) var children: Set<NodeID> = []
    /// Subscribers (view or test contexts) that watch this node, by subscriber id.
    @exclusivity(unchecked) var subscriptions: [Int: Subscription] = [:]
    /// Propagation pass in which a dependency of this node changed.
    @exclusivity(unchecked) var dirtyEpoch = 0
    /// Propagation pass in which this node was recomputed.
    @exclusivity(unchecked) var doneEpoch = 0
    /// Propagation pass in which the topological walk visited this node.
    @exclusivity(unchecked) var visitEpoch = 0
    /// A node computed for `read` of an uncached atom; never registered, never released.
    var isTransient = false
    /// Whether the node is still in the store (false once released).
    var isAlive = true
    /// Increases each time a computation is superseded (recompute, refresh, release), so work
    /// a computation started can tell it no longer counts.
    var generation = 0
    /// Cleanup registered through ``AtomTransactionContext/onTermination``.
    var onTermination: (@MainActor () -> Void)?
    /// Set by a producer whose recomputation holds the previous value back (`.debounce`).
    var holdsPropagation = false
    /// State that a modifier keeps across recomputations (e.g. `.previous`).
    var modifierStorage: AnyObject?
    /// While a refresh runs: the nodes it watched, which become the dependencies when it ends.
    var refreshWatches: Set<NodeID>?
    /// Whether the node's computation is running right now.
    var isComputing = false

    init(id: NodeID, serial: Int, scope: ScopeKey?, indexKey: NodeIndexKey) {
        self.id = id
        self.serial = serial
        self.scope = scope
        self.indexKey = indexKey
    }

    /// Whether the atom type is ``KeepAlive``.
    var isKeepAlive: Bool { false }
    /// Whether the atom declares an effect (not ``EmptyEffect``).
    var hasEffect: Bool { false }
    /// The identity of the atom, for snapshots and transaction records.
    var identity: AtomIdentity { fatalError("abstract") }
    /// The cached value, type-erased.
    var anyValue: Any { fatalError("abstract") }

    /// Recomputes the value because a dependency changed; returns whether the new value
    /// propagates to dependents and subscribers.
    func recompute(in engine: StoreEngine) -> Bool { fatalError("abstract") }
    /// Ends the current computation: later results of it are dropped, and the `onTermination`
    /// handler it registered (cancelling its task, say) runs.
    func terminate() {
        generation += 1
        if let onTermination {
            self.onTermination = nil
            onTermination()
        }
    }
    /// Captures the atom and its value for a snapshot.
    func snapshotItem() -> AnySnapshotItem { fatalError("abstract") }
    /// Sets a value delivered asynchronously; the value is always of the atom's type.
    func assign(_ value: Any) {}
    /// Takes the seeded value for this atom, if the seeds have one; returns whether it did.
    func takeSeed(from seeds: any AtomValueSeeds) -> Bool { false }
    /// The effect lifecycle events, run by the store after a transaction commits.
    func effectInitialized() {}
    func effectUpdated() {}
    func effectReleased() {}
}

/// A cached atom of a concrete type.
@MainActor
final class AtomNode<Node: Atom>: AnyAtomNode {
    var atom: Node
    /// `nil` only while the first computation runs.
    @exclusivity(unchecked) var value: Node.Produced?
    var effect: Node.Effect?
    /// The store context the atom's own computation runs in.
    let store: StoreContext
    let info: AtomTypeInfo<Node>
    /// The override that replaces the atom's producer, if any.
    let override: (@MainActor (Node) -> Node.Produced)?
    /// Made on first use (only when someone records or snapshots the store).
    private var cachedIdentity: AtomIdentity?

    init(
        id: NodeID,
        serial: Int,
        atom: Node,
        scope: ScopeKey?,
        store: StoreContext,
        info: AtomTypeInfo<Node>,
        override: (@MainActor (Node) -> Node.Produced)?
    ) {
        self.atom = atom
        self.store = store
        self.info = info
        self.override = override
        super.init(id: id, serial: serial, scope: scope, indexKey: NodeIndex.key(for: atom.key, of: Node.self, scope: scope))
    }

    override var isKeepAlive: Bool { info.isKeepAlive }

    override var hasEffect: Bool { info.hasEffect }

    override var identity: AtomIdentity {
        if let cachedIdentity {
            return cachedIdentity
        }
        let identity = AtomIdentity(atom, scope: scope, names: info.names)
        cachedIdentity = identity
        return identity
    }

    override var anyValue: Any {
        // `value` is only nil while the first computation runs, before anyone can ask.
        value.map { $0 as Any } ?? (value as Any)
    }

    /// The current value; valid once the first computation finished.
    var currentValue: Node.Produced {
        value!
    }

    /// Runs the producer (or the override), recording the dependencies it watches.
    func produce(in engine: StoreEngine) -> Node.Produced {
        let oldDependencies = dependencies
        dependencies = []
        terminate()
        isComputing = true
        let newValue: Node.Produced = engine.guardingStack {
            if let override {
                return override(atom)
            }
            return atom.producer.compute(AtomProducerContext(store: store, node: self, engine: engine))
        }
        isComputing = false
        engine.didCompute(self, oldDependencies: oldDependencies)
        return newValue
    }

    override func recompute(in engine: StoreEngine) -> Bool {
        holdsPropagation = false
        let newValue = produce(in: engine)
        let propagates = !holdsPropagation && (value.map { old in
            atom.producer.shouldPropagate?(old, newValue) ?? true
        } ?? true)
        value = newValue
        return propagates
    }

    override func takeSeed(from seeds: any AtomValueSeeds) -> Bool {
        guard let seeded = seeds.value(for: identity, as: Node.Produced.self) else {
            return false
        }
        value = seeded
        return true
    }

    override func assign(_ value: Any) {
        if let value = value as? Node.Produced {
            self.value = value
        }
    }

    override func snapshotItem() -> AnySnapshotItem {
        SnapshotItem(atom: atom, value: currentValue, scope: scope, names: info.names)
    }

    private var effectContext: AtomCurrentContext {
        AtomCurrentContext(store: store)
    }

    override func effectInitialized() {
        effect?.initialized(context: effectContext)
    }

    override func effectUpdated() {
        effect?.updated(context: effectContext)
    }

    override func effectReleased() {
        effect?.released(context: effectContext)
    }

    /// Creates the effect and runs its `initializing` event, before the first computation.
    func startEffect() {
        guard info.hasEffect else {
            return
        }
        let context = effectContext
        let effect = atom.effect(context: context)
        self.effect = effect
        effect.initializing(context: context)
    }
}

/// A subscriber's watch of one node.
struct Subscription {
    /// Where the subscriber was created (shown in the dependency graph).
    let location: SourceLocation
    /// The subscriber; weak so that a forgotten context can still be deinitialized.
    weak var subscriber: SubscriberState?
}
