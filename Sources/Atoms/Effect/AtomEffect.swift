/// Side effects synchronized with an atom's lifecycle.
///
/// An atom's effect (from ``Atom/effect(context:)``) is created when the atom is first used and
/// kept until the atom is released, so it may hold state. The store calls `initializing` before
/// the first computation, then `initialized`, `updated` and `released` after the transactions
/// in which those happened commit.
///
/// - SeeAlso: ``InitializingEffect``, ``InitializeEffect``, ``UpdateEffect``, ``ReleaseEffect``
@MainActor
public protocol AtomEffect {
    /// The context effects read and write other atoms through.
    typealias Context = AtomCurrentContext

    /// Called before the atom is first computed (or re-computed after a release).
    func initializing(context: Context)

    /// Called after the atom was first computed (or re-computed after a release).
    func initialized(context: Context)

    /// Called after the atom's value was updated.
    func updated(context: Context)

    /// Called after the atom was released.
    func released(context: Context)
}

public extension AtomEffect {
    /// Does nothing.
    func initializing(context: Context) {}
    /// Does nothing.
    func initialized(context: Context) {}
    /// Does nothing.
    func updated(context: Context) {}
    /// Does nothing.
    func released(context: Context) {}
}
