import Atoms
import Foundation

/// What the recorder takes from a transaction on the main actor, to turn into a journal line on
/// its own thread.
///
/// Most transactions change values and nothing in the graph: that case allocates nothing. The
/// changed values are not in here: they are a range of the staged changes
/// (``CaptureStaging/changes``), whose typed values wait in their atoms' capture slots.
struct CapturedTransaction: Sendable {
    /// The changes to the dependency graph, for the transactions that have any.
    struct GraphChanges: Sendable {
        let created: [AtomIdentity]
        let released: [AtomIdentity]
        let edgesAdded: [AtomTransaction.Edge]
        let edgesRemoved: [AtomTransaction.Edge]
        let subscriptionsAdded: [AtomTransaction.SubscriptionChange]
        let subscriptionsRemoved: [AtomTransaction.SubscriptionChange]
    }

    /// How a transaction names its origin.
    enum Origin: Sendable {
        /// The atom of one of its changes (the usual case: a write changes the atom written),
        /// by the change's index among the staged changes: its slot is at hand, unretained.
        case change(Int)
        /// An atom whose value did not change (a refresh that kept it, a reset).
        case atom(AtomIdentity)
    }

    let sequence: Int
    /// When it committed: a raw monotonic clock stamp (``MonotonicClock``), turned into
    /// milliseconds since recording started on the recorder's thread.
    let timestamp: UInt64
    let cause: AtomTransaction.Cause
    /// The atom whose write started the transaction.
    let origin: Origin?
    let location: SourceLocation?
    /// The transaction's changed values, in order: a range of the staged changes.
    let changes: Range<Int>
    /// `nil` when the graph did not change.
    let graph: GraphChanges?
}
