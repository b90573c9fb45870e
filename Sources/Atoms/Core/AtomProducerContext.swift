/// What a producer sees while it computes one atom's value.
@MainActor
struct AtomProducerContext<Value> {
    let store: StoreContext
    let node: AnyAtomNode

    /// The context handed to the atom's `value(context:)` / `defaultValue(context:)`.
    var transactionContext: AtomTransactionContext {
        AtomTransactionContext(store: store, owner: node)
    }

    /// State a modifier keeps across recomputations of this node, created on first use.
    func storage<Storage: AnyObject>(_ make: () -> Storage) -> Storage {
        guard let node = node as? any ModifierStorageHolder else {
            return make()
        }
        if let existing = node.modifierStorage as? Storage {
            return existing
        }
        let storage = make()
        node.modifierStorage = storage
        return storage
    }
}

/// A node that can keep modifier state.
@MainActor
protocol ModifierStorageHolder: AnyObject {
    var modifierStorage: AnyObject? { get set }
}

extension AtomNode: ModifierStorageHolder {}
