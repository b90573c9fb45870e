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

    let sequence: Int
    let timestamp: Date
    let cause: AtomTransaction.Cause
    let origin: AtomIdentity?
    let location: SourceLocation?
    /// The transaction's changed values, in order: a range of the staged changes.
    let changes: Range<Int>
    /// `nil` when the graph did not change.
    let graph: GraphChanges?
}
