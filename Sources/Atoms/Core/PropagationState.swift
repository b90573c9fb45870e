/// A store's propagation pass: the changed nodes whose dependents are brought up to date, and
/// the epoch that marks which nodes a pass made dirty and recomputed.
@MainActor
struct PropagationState {
    /// Increases with every source a pass propagates from; nodes compare their marks with it.
    private(set) var epoch = 0
    /// Whether a pass is running (changes made meanwhile join it as further sources).
    private(set) var isPropagating = false
    private var pendingSources: [AnyAtomNode] = []

    nonisolated init() {}

    /// Whether a node's dependencies changed in this pass and it was not recomputed yet.
    @inline(__always)
    func isStale(_ node: AnyAtomNode) -> Bool {
        isPropagating && node.dirtyEpoch == epoch && node.doneEpoch != epoch
    }

    /// Queues a node whose value changed; returns whether the caller starts the pass (none was
    /// running) and must run it to the end, then call ``finish()``.
    mutating func queue(_ source: AnyAtomNode) -> Bool {
        pendingSources.append(source)
        guard !isPropagating else {
            return false
        }
        isPropagating = true
        return true
    }

    /// The `position`-th source queued in this pass, if there is one.
    func source(at position: Int) -> AnyAtomNode? {
        position < pendingSources.count ? pendingSources[position] : nil
    }

    /// Starts propagating from the next source; returns the epoch its marks use.
    mutating func nextEpoch() -> Int {
        epoch += 1
        return epoch
    }

    /// Ends the pass.
    mutating func finish() {
        pendingSources.removeAll(keepingCapacity: true)
        isPropagating = false
    }
}
