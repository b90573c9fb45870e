/// An atom whose value comes from asynchronous work, and so can be refreshed with
/// `context.refresh(atom)`: ``TaskAtom``, ``ThrowingTaskAtom``, ``AsyncPhaseAtom``,
/// ``AsyncSequenceAtom``, ``PublisherAtom`` and the `.phase` modifier.
public protocol AsyncAtom<Produced>: Atom {
    // --- Internal ---

    /// A producer that restarts the work and returns when it completed.
    var refreshProducer: AtomRefreshProducer<Produced> { get }
}
