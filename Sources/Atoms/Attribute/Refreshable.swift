/// An attribute that gives an atom a custom `refresh` behavior.
///
/// The value `refresh(context:)` returns becomes the atom's cached value (when it is cached),
/// and dependents and watchers are notified.
///
/// ## Example
/// ```swift
/// struct MoviesPhaseAtom: ValueAtom, Refreshable, Hashable {
///     func value(context: Context) -> AsyncPhase<[Movie], any Error> { ... }
///     func refresh(context: CurrentContext) async -> AsyncPhase<[Movie], any Error> { ... }
/// }
/// ```
public protocol Refreshable where Self: Atom {
    /// Produces a refreshed value.
    ///
    /// - Parameter context: A context to read, set, and refresh other atoms.
    /// - Returns: The refreshed value.
    @MainActor
    func refresh(context: CurrentContext) async -> Produced
}
