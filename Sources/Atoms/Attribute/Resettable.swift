/// An attribute that replaces what `reset` does for an atom.
///
/// ## Example
/// ```swift
/// struct RandomIntAtom: ValueAtom, Resettable, Hashable {
///     func value(context: Context) -> Int { ... }
///     func reset(context: CurrentContext) {
///         context.reset(GeneratorAtom())
///     }
/// }
/// ```
public protocol Resettable where Self: Atom {
    /// Runs instead of the default reset when the atom is reset.
    ///
    /// - Parameter context: A context to read, set, and reset other atoms.
    @MainActor
    func reset(context: CurrentContext)
}

extension Resettable {
    /// Calls ``reset(context:)`` through an existential.
    @MainActor
    func runReset(context: AtomCurrentContext) {
        reset(context: context)
    }
}
