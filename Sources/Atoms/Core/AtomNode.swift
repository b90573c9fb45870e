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
    /// Nodes this node watched during its last computation.
    @exclusivity(unchecked) var dependencies: Set<NodeID> = []
    /// Nodes that watch this node.
    @exclusivity(unchecked) var children: Set<NodeID> = []
    /// Subscribers (view or test contexts) that watch this node.
    @exclusivity(unchecked) var subscriptions = SubscriptionList()
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
    /// Only these pass updates on to the node meanwhile (upstream detaches a refreshing atom
    /// from its dependencies until it watches them again).
    var refreshWatches: Set<NodeID>?
    /// Whether the node's computation is running right now.
    var isComputing = false
    /// Whether the atom type is ``KeepAlive``.
    let isKeepAlive: Bool
    /// Whether the atom declares an effect (not ``EmptyEffect``); the others skip effect
    /// bookkeeping.
    let hasEffect: Bool

    init(id: NodeID, serial: Int, scope: ScopeKey?, indexKey: NodeIndexKey, isKeepAlive: Bool, hasEffect: Bool) {
        self.id = id
        self.serial = serial
        self.scope = scope
        self.indexKey = indexKey
        self.isKeepAlive = isKeepAlive
        self.hasEffect = hasEffect
    }

    /// The identity of the atom, for snapshots and transaction records.
    var identity: AtomIdentity { fatalError("abstract") }
    /// The cached value, type-erased.
    var anyValue: Any { fatalError("abstract") }
    /// Hands the value to this node's slot from `maker` (made on first use); returns `false`,
    /// handing nothing, while the node has no value yet.
    func captureValue(into maker: any CommitSlotMaker) -> Bool { fatalError("abstract") }

    /// Recomputes the value because a dependency changed; returns whether the new value
    /// propagates to dependents and subscribers.
    func recompute(in engine: StoreEngine) -> Bool { fatalError("abstract") }
    /// Ends the current computation: later results of it are dropped, and the `onTermination`
    /// handler it registered (cancelling its task, say) runs. Writes the handler makes are
    /// transactions of their own, after the one in progress.
    func terminate(in engine: StoreEngine) {
        generation += 1
        refreshWatches = nil
        if let onTermination {
            self.onTermination = nil
            engine.holdingWrites(onTermination)
        }
    }
    /// Captures the atom and its value for a snapshot.
    func snapshotItem() -> AnySnapshotItem { fatalError("abstract") }
    /// Sets a value delivered asynchronously; the value is always of the atom's type.
    func assign(_ value: Any) {}
    /// Takes the seeded value for this atom, if the seeds have one; returns whether it did.
    func takeSeed(from seeds: any AtomValueSeeds) -> Bool { false }
    /// Whether the atom is a state (a ``StateAtom``), which a write may set.
    var isState: Bool { false }
    /// The name of the atom's value type, for messages (`Array<Todo>`).
    var valueTypeName: String { "" }
    /// The seeded value for this atom, ready to set; `nil` when the seeds have none that
    /// decodes as the atom's value type.
    func seededWrite(from seeds: any AtomValueSeeds) -> (@MainActor () -> Void)? { nil }
    /// The effect lifecycle events, run by the store after a transaction commits.
    func effectInitialized() {}
    func effectUpdated() {}
    func effectReleased() {}
}

/// A cached atom of a concrete type.
///
/// Nothing stored here has a type like `Node.Produced?`: the library's generic code is not
/// specialized for the caller's atoms, and every use of such a type (even destroying it) looks
/// up its `Optional` metadata at run time, which cost more than all the rest of creating and
/// releasing a node. The value lives behind a typed pointer; the effect in a box.
@MainActor
final class AtomNode<Node: Atom>: AnyAtomNode {
    var atom: Node
    /// The value's storage, allocated with the node; initialized while ``hasValue``.
    /// (`nonisolated(unsafe)`: read by `deinit`, when nothing else refers to the node.)
    nonisolated(unsafe) private let storage: UnsafeMutablePointer<Node.Produced>
    /// Whether the node holds a value: false only until its first computation returns (and
    /// while ``StoreEngine/modify(_:in:location:body:)`` lends the value out).
    @exclusivity(unchecked) nonisolated(unsafe) private(set) var hasValue = false
    /// The effect, for atom types that declare one (boxed: one word in every node, where the
    /// existential itself would take five).
    private var effect: EffectBox?
    /// The store context the atom's own computation runs in.
    let store: StoreContext
    let info: AtomTypeInfo<Node>
    /// The overrides that apply to the atom, consulted each time it produces a value (as
    /// upstream: an override added after the atom was first used applies from its next
    /// recomputation, reset or refresh on).
    let overrides: OverrideContainer
    /// Made on first use (only when someone records or snapshots the store).
    private var cachedIdentity: AtomIdentity?
    /// The recorders' slots for this node's values (``CommitSlot``), made on first use: one,
    /// or a chain when more than one recorder recorded the store.
    var commitSlots: CommitSlot<Node.Produced>?

    init(
        id: NodeID,
        serial: Int,
        atom: Node,
        scope: ScopeKey?,
        indexKey: NodeIndexKey,
        store: StoreContext,
        info: AtomTypeInfo<Node>,
        overrides: OverrideContainer
    ) {
        self.atom = atom
        self.storage = .allocate(capacity: 1)
        self.store = store
        self.info = info
        self.overrides = overrides
        super.init(
            id: id, serial: serial, scope: scope, indexKey: indexKey,
            isKeepAlive: info.isKeepAlive, hasEffect: info.hasEffect
        )
    }

    deinit {
        if hasValue {
            storage.deinitialize(count: 1)
        }
        storage.deallocate()
    }

    override var identity: AtomIdentity {
        if let cachedIdentity {
            return cachedIdentity
        }
        let identity = AtomIdentity(atom, scope: scope, names: info.names)
        cachedIdentity = identity
        return identity
    }

    override var anyValue: Any {
        // Only empty while the first computation runs, before anyone can ask.
        hasValue ? storage.pointee as Any : Optional<Node.Produced>.none as Any
    }

    override func captureValue(into maker: any CommitSlotMaker) -> Bool {
        guard hasValue else { return false }
        slot(from: maker).capture(UnsafePointer(storage))
        return true
    }

    /// The value, or `nil` before the first computation returned.
    var value: Node.Produced? {
        hasValue ? storage.pointee : nil
    }

    /// The current value; valid once the first computation finished.
    var currentValue: Node.Produced {
        precondition(hasValue, "\(Node.self) was read while its own value was being computed (a dependency cycle)")
        return storage.pointee
    }

    /// Replaces the value (or sets the first one).
    func setValue(_ newValue: Node.Produced) {
        if hasValue {
            storage.pointee = newValue
        } else {
            storage.initialize(to: newValue)
            hasValue = true
        }
    }

    /// The override that applies to the atom now, if any.
    var override: (@MainActor (Node) -> Node.Produced)? {
        overrides.override(for: atom)
    }

    /// Runs the producer (or the override), recording the dependencies it watches. The atom
    /// kind takes charge of the value either way: an overridden task is still cancelled when
    /// the atom is released, an overridden object still observed.
    func produce(in engine: StoreEngine) -> Node.Produced {
        let oldDependencies = dependencies
        dependencies = []
        terminate(in: engine)
        isComputing = true
        let timer = engine.timer
        let evaluation = timer?.evaluationStarted(self)
        defer {
            if let timer, let evaluation { timer.evaluationEnded(evaluation, of: self) }
        }
        // On a fresh stack when the current one runs low, so that deep chains of atoms compute.
        let newValue: Node.Produced = StackGuard.run {
            let producer = atom.producer
            let context = AtomProducerContext<Node.Produced>(store: store, node: self)
            // The emptiness test comes first: the generic lookup returns an optional closure
            // whose type metadata is looked up at run time on every call.
            let value = if !overrides.isEmpty, let override { override(atom) } else { producer.compute(context) }
            if let manage = producer.manage {
                manage(value, context)
            }
            return value
        }
        isComputing = false
        engine.didCompute(self, oldDependencies: oldDependencies)
        return newValue
    }

    override func recompute(in engine: StoreEngine) -> Bool {
        holdsPropagation = false
        let newValue = produce(in: engine)
        var propagates = !holdsPropagation
        if propagates, hasValue, let shouldPropagate = atom.producer.shouldPropagate {
            propagates = shouldPropagate(storage.pointee, newValue)
        }
        setValue(newValue)
        return propagates
    }

    override func takeSeed(from seeds: any AtomValueSeeds) -> Bool {
        guard let seeded = seeds.value(for: identity, as: Node.Produced.self) else {
            return false
        }
        setValue(seeded)
        return true
    }

    override var isState: Bool {
        Node.self is any StateAtom.Type
    }

    override var valueTypeName: String {
        String(describing: Node.Produced.self)
    }

    override func seededWrite(from seeds: any AtomValueSeeds) -> (@MainActor () -> Void)? {
        guard let seeded = seeds.value(for: identity, as: Node.Produced.self) else {
            return nil
        }
        return { [self] in setValue(seeded) }
    }

    override func assign(_ value: Any) {
        if let value = value as? Node.Produced {
            setValue(value)
        }
    }

    override func snapshotItem() -> AnySnapshotItem {
        SnapshotItem(atom: atom, value: currentValue, scope: scope, names: info.names)
    }

    private var effectContext: AtomCurrentContext {
        AtomCurrentContext(store: store)
    }

    override func effectInitialized() {
        effect?.effect.initialized(context: effectContext)
    }

    override func effectUpdated() {
        effect?.effect.updated(context: effectContext)
    }

    override func effectReleased() {
        effect?.effect.released(context: effectContext)
    }

    /// Creates the effect and runs its `initializing` event, before the first computation.
    ///
    /// `effect(context:)` is called even when it returns ``EmptyEffect``, as upstream does: an
    /// atom may do work there. Only a real effect is kept.
    func startEffect() {
        let context = effectContext
        guard hasEffect else {
            _ = atom.effect(context: context)
            return
        }
        let effect = atom.effect(context: context)
        self.effect = EffectBox(effect: effect)
        effect.initializing(context: context)
    }
}

/// An atom's effect, kept by its node.
@MainActor
final class EffectBox {
    let effect: any AtomEffect

    init(effect: any AtomEffect) {
        self.effect = effect
    }
}
