import Atoms
import Foundation

/// What the recorder takes from a transaction on the main actor, to turn into a journal line on
/// its own thread.
///
/// Most transactions change one value and nothing in the graph: that case allocates nothing
/// (the value inline, no graph lists), because the main actor pays for every allocation here
/// on every write and the recorder's thread again to free it.
struct CapturedTransaction: @unchecked Sendable {
    // Unchecked: only `CapturedValue.later` holds a non-`Sendable` value, and only values that
    // `OffThreadEncodingCheck` found to contain no class instance (copies of plain value
    // types, which no later change on the main actor can reach).

    /// A changed value: encoded already, or to be encoded on the recorder's thread.
    enum CapturedValue {
        case encoded(EncodedValue)
        case later(Any)
    }

    /// One atom's new value.
    struct ValueChange {
        let atom: AtomIdentity
        let value: CapturedValue
    }

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
    /// The first changed value, kept inline.
    private(set) var firstValue: ValueChange?
    /// The other changed values, in order.
    private(set) var moreValues: [ValueChange] = []
    /// `nil` when the graph did not change.
    let graph: GraphChanges?

    init(sequence: Int, timestamp: Date, cause: AtomTransaction.Cause, origin: AtomIdentity?, location: SourceLocation?, graph: GraphChanges?) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.cause = cause
        self.origin = origin
        self.location = location
        self.graph = graph
    }

    /// Adds the next changed value.
    mutating func append(_ change: ValueChange) {
        if firstValue == nil {
            firstValue = change
        } else {
            moreValues.append(change)
        }
    }

    /// The changed values, in order.
    func forEachValue(_ body: (ValueChange) -> Void) {
        guard let firstValue else { return }
        body(firstValue)
        for change in moreValues {
            body(change)
        }
    }
}
