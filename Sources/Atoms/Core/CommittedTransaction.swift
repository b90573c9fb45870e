import Foundation

/// A committed transaction as this package's journal recorder reads it: straight from the
/// store's own lists, during the commit, without building the public ``AtomTransaction``.
///
/// The recorder sees every transaction, so what it costs is paid on every write; this view
/// skips the public record's allocation and its lists of identities, and a transaction that
/// only changed values reports no graph lists at all.
///
/// Valid only while the observer runs: its lists are the store's own, which the next
/// transaction reuses. The type says so: it is not copyable and observers borrow it, so an
/// observer can read it but neither store it nor capture it in a closure that outlives the
/// call. (`~Escapable` would say it more directly, but Swift 6.2 lets no initializer return
/// one without the experimental lifetime features.)
@MainActor
package struct CommittedTransaction: ~Copyable {
    /// As ``AtomTransaction/sequence``.
    package let sequence: Int
    /// When it began, a raw ``MonotonicClock`` stamp, while the store times its transactions
    /// (``AtomStore/observeTimings(_:)``); 0 otherwise.
    package let started: UInt64
    /// As ``AtomTransaction/cause``.
    package let cause: AtomTransaction.Cause
    /// As ``AtomTransaction/location``.
    package let location: SourceLocation?
    private let originNode: AnyAtomNode?
    private let changes: TransactionChanges

    @inline(__always)
    init(sequence: Int, started: UInt64, cause: AtomTransaction.Cause, origin: AnyAtomNode?, location: SourceLocation?, changes: TransactionChanges) {
        self.sequence = sequence
        self.started = started
        self.cause = cause
        self.originNode = origin
        self.location = location
        self.changes = changes
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
    ///
    /// - Returns: The position, among the values handed over, of the atom whose write started
    ///   the transaction (``origin``), when its value is among them: the recorder then refers
    ///   to its slot, not to its identity.
    package func captureChangedValues(into maker: any CommitSlotMaker) -> Int? {
        var position = 0
        var originPosition: Int?
        changes.forEachChangedValue { node in
            guard node.captureValue(into: maker) else { return }
            if node === originNode {
                originPosition = position
            }
            position += 1
        }
        return originPosition
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
