/// What a producer sees while it computes one atom's value.
@MainActor
struct AtomProducerContext<Value> {
    let store: StoreContext
    let node: AnyAtomNode
    /// The computation this context belongs to; see ``AnyAtomNode/generation``.
    let generation: Int
    /// When the computation started, while the store times its work (0 otherwise): the start
    /// of the task whose result ``update(with:)`` delivers.
    let startedAt: UInt64

    init(store: StoreContext, node: AnyAtomNode) {
        self.store = store
        self.node = node
        self.generation = node.generation
        self.startedAt = store.engine.timer == nil ? 0 : MonotonicClock.now()
    }

    /// The context handed to the atom's `value(context:)` / `defaultValue(context:)`.
    var transactionContext: AtomTransactionContext {
        AtomTransactionContext(store: store, owner: node, generation: generation)
    }

    /// Whether this computation was superseded (a recomputation, reset or refresh began) or
    /// the atom released.
    var isTerminated: Bool {
        !node.isAlive || node.generation != generation
    }

    /// Cleanup run when this computation is superseded or the atom released.
    func onTermination(_ handler: @escaping @MainActor () -> Void) {
        if node.generation == generation {
            node.onTermination = handler
        } else {
            handler()
        }
    }

    /// Delivers a value produced later (a task finished, a sequence yielded): it becomes the
    /// atom's value in a transaction of its own, unless this computation was superseded or the
    /// atom released meanwhile, in which case it is dropped.
    func update(with value: Value) {
        guard node.isAlive, node.generation == generation else {
            store.engine.timer?.taskEnded(node, start: startedAt, committed: false)
            return
        }
        if node.isComputing {
            // A task finished before its computation returned: as upstream, the computation's
            // own value (`.suspending`) comes first and the result is a later update.
            let transfer = MainActorTransfer(value: (self, value))
            Task { @MainActor in
                transfer.value.0.update(with: transfer.value.1)
            }
            return
        }
        store.engine.deliver(value, to: node, taskStart: startedAt)
    }

    /// Keeps the atom's previous value from reaching dependents for this recomputation.
    func holdPropagation() {
        node.holdsPropagation = true
    }

    /// State a modifier keeps across recomputations of this node, created on first use.
    func storage<Storage: AnyObject>(_ make: () -> Storage) -> Storage {
        if let existing = node.modifierStorage as? Storage {
            return existing
        }
        let storage = make()
        node.modifierStorage = storage
        return storage
    }
}

extension AtomProducerContext {
    /// Refreshes another async atom from within a producer (used by `.phase`).
    func refresh<Node: AsyncAtom>(_ atom: Node) async -> Node.Produced {
        await store.engine.refresh(atom, in: store, location: nil)
    }
}
