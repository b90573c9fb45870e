import Atoms
import Foundation

/// What the recorder takes from a transaction on the main actor, to turn into a journal line on
/// its own thread.
struct CapturedTransaction: @unchecked Sendable {
    // Unchecked: only `CapturedValue.later` holds a non-`Sendable` value, and only values that
    // `OffThreadEncodingCheck` found to contain no class instance (copies of plain value
    // types, which no later change on the main actor can reach).

    /// A changed value: encoded already, or to be encoded on the recorder's thread.
    enum CapturedValue {
        case encoded(EncodedValue)
        case later(Any)
    }

    let sequence: Int
    let timestamp: Date
    let cause: AtomTransaction.Cause
    let origin: AtomIdentity?
    let location: SourceLocation?
    let values: [(atom: AtomIdentity, value: CapturedValue)]
    let created: [AtomIdentity]
    let released: [AtomIdentity]
    let edgesAdded: [AtomTransaction.Edge]
    let edgesRemoved: [AtomTransaction.Edge]
    let subscriptionsAdded: [AtomTransaction.SubscriptionChange]
    let subscriptionsRemoved: [AtomTransaction.SubscriptionChange]
}
