/// Where a store is in its transactions: how deeply they nest, whether the outermost one is
/// committing, whether writes must wait, the writes waiting, and the last committed sequence.
///
/// The engine's `begin`/`commit` drive it; writes made while they would land inside another
/// transaction's commit or computation are queued here and run later, each as a transaction of
/// its own, in the order they were made.
@MainActor
struct TransactionState {
    /// A write made while writes were held, with whether an effect made it.
    typealias DeferredWrite = (write: @MainActor () -> Void, fromEffect: Bool)

    /// How many `begin`s are open.
    private(set) var depth = 0
    /// Set from the moment the outermost transaction starts committing until it has reported
    /// itself to observers.
    private(set) var isCommitting = false
    /// How many holds on writes are open (a commit, an `onTermination` handler): above zero,
    /// writes are queued rather than run.
    private var writeHolds = 0
    private var deferredWrites: [DeferredWrite] = []
    /// The sequence number of the last committed transaction.
    private(set) var sequence = 0
    /// Whether effects (or a write an effect made) are running: their transactions are
    /// reported as the effect's.
    private(set) var isRunningEffects = false

    nonisolated init() {}

    /// Whether a write must be queued with ``deferWrite(_:)`` rather than run now.
    var writesAreHeld: Bool {
        writeHolds > 0
    }

    /// Opens a transaction level; returns whether it is a new outermost transaction (not one
    /// joining an open transaction or the commit in progress).
    mutating func enter() -> Bool {
        defer { depth += 1 }
        return depth == 0 && !isCommitting
    }

    /// Closes a transaction level; returns whether the outermost transaction must commit now.
    mutating func leave() -> Bool {
        depth -= 1
        return depth == 0 && !isCommitting
    }

    /// The outermost transaction starts committing: writes are held until ``releaseWrites()``.
    mutating func startCommitting() {
        holdWrites()
        isCommitting = true
    }

    /// The committing transaction was reported: new transactions no longer join it.
    mutating func endCommitting() {
        isCommitting = false
    }

    /// Gives the committing transaction its sequence number.
    mutating func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    /// Queues writes from now until the matching ``releaseWrites()``.
    mutating func holdWrites() {
        writeHolds += 1
    }

    /// Ends one hold of ``holdWrites()``.
    mutating func releaseWrites() {
        writeHolds -= 1
    }

    /// Queues a write, remembering whether an effect made it.
    mutating func deferWrite(_ write: @escaping @MainActor () -> Void) {
        deferredWrites.append((write, isRunningEffects))
    }

    /// The oldest queued write, taken off the queue, once no hold and no transaction is open.
    mutating func nextDeferredWrite() -> DeferredWrite? {
        guard writeHolds == 0, depth == 0, !deferredWrites.isEmpty else {
            return nil
        }
        return deferredWrites.removeFirst()
    }

    /// Marks whether effects are running; returns whether they were before.
    mutating func setRunningEffects(_ running: Bool) -> Bool {
        defer { isRunningEffects = running }
        return isRunningEffects
    }
}
