import Foundation

/// A committed transaction as this package's journal recorder reads it: straight from the
/// store's own lists, during the commit, without building the public ``AtomTransaction``.
///
/// The recorder sees every transaction, so what it costs is paid on every write; this view
/// skips the public record's allocation and its lists of identities, and a transaction that
/// only changed values reports no graph lists at all.
///
/// Valid only while the observer runs: its lists are the store's own, which the next
/// transaction reuses. Swift 6.2 cannot say so in the type without experimental lifetime
/// features (`~Escapable` needs a lifetime for its initializer), so every accessor checks it in
/// debug builds (tests): a view kept past its call traps there, and ``isValid`` says so.
@MainActor
package struct CommittedTransaction {
    /// As ``AtomTransaction/sequence``.
    package let sequence: Int
    /// As ``AtomTransaction/cause``.
    package let cause: AtomTransaction.Cause
    /// As ``AtomTransaction/location``.
    package let location: SourceLocation?
    private let originNode: AnyAtomNode?
    private let lists: TransactionChanges
    private let generation: Int

    init(sequence: Int, cause: AtomTransaction.Cause, origin: AnyAtomNode?, location: SourceLocation?, changes: TransactionChanges) {
        self.sequence = sequence
        self.cause = cause
        self.originNode = origin
        self.location = location
        self.lists = changes
        self.generation = changes.generation
    }

    /// Whether the view still shows its transaction: `false` once its observer call is over
    /// (the store's lists moved on to the next transaction).
    package var isValid: Bool {
        lists.generation == generation
    }

    /// The store's lists, checked (in debug builds) to still be this transaction's.
    private var changes: TransactionChanges {
        assert(isValid, "a CommittedTransaction was used after its observer call: copy what you need during the call")
        return lists
    }

    /// As ``AtomTransaction/origin``.
    package var origin: AtomIdentity? {
        originNode?.identity
    }

    /// Whether atoms were created or released, or edges or subscriptions changed.
    package var changesGraph: Bool {
        changes.changesGraph
    }

    /// Calls `body` with each changed value, as ``AtomTransaction/changedValues`` lists them.
    package func forEachChangedValue(_ body: (AtomIdentity, Any) -> Void) {
        changes.forEachChangedValue { node in
            body(node.identity, node.anyValue)
        }
    }

    /// Hands each changed value, as ``forEachChangedValue(_:)`` lists them, to its atom's slot
    /// from `maker` (``CommitSlot/capture(_:)``): typed, with no value boxed.
    package func captureChangedValues(into maker: any CommitSlotMaker) {
        changes.forEachChangedValue { node in
            node.captureValue(into: maker)
        }
    }

    /// As ``AtomTransaction/created``.
    package var created: [AtomIdentity] { changes.created.map(\.identity) }
    /// As ``AtomTransaction/released``.
    package var released: [AtomIdentity] { changes.released.map(\.identity) }
    /// As ``AtomTransaction/edgesAdded``.
    package var edgesAdded: [AtomTransaction.Edge] {
        changes.edgesAdded.map { AtomTransaction.Edge(dependency: $0.0.identity, dependent: $0.1.identity) }
    }
    /// As ``AtomTransaction/edgesRemoved``.
    package var edgesRemoved: [AtomTransaction.Edge] {
        changes.edgesRemoved.map { AtomTransaction.Edge(dependency: $0.0.identity, dependent: $0.1.identity) }
    }
    /// As ``AtomTransaction/subscriptionsAdded``.
    package var subscriptionsAdded: [AtomTransaction.SubscriptionChange] {
        changes.subscriptionsAdded.map { AtomTransaction.SubscriptionChange(atom: $0.0.identity, location: $0.1) }
    }
    /// As ``AtomTransaction/subscriptionsRemoved``.
    package var subscriptionsRemoved: [AtomTransaction.SubscriptionChange] {
        changes.subscriptionsRemoved.map { AtomTransaction.SubscriptionChange(atom: $0.0.identity, location: $0.1) }
    }
}
