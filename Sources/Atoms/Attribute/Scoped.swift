/// An attribute that keeps an atom's state in the nearest scope (``AtomScope``) instead of
/// sharing it across the whole store.
///
/// ## Example
/// ```swift
/// struct SearchQueryAtom: StateAtom, Scoped, Hashable {
///     func defaultValue(context: Context) -> String { "" }
/// }
/// ```
public protocol Scoped where Self: Atom {
    /// Identifies which scope stores the atom; ``DefaultScopeID`` means the nearest one.
    associatedtype ScopeID: Hashable & Sendable = DefaultScopeID

    /// The scope that stores the atom: the nearest ``AtomScope`` created with this ID.
    var scopeID: ScopeID { get }
}

public extension Scoped where ScopeID == DefaultScopeID {
    /// The nearest scope.
    var scopeID: ScopeID {
        DefaultScopeID()
    }
}

extension Scoped {
    /// The scope ID, type-erased for matching against scopes.
    var anyScopeID: AnyHashable {
        AnyHashable(scopeID)
    }
}

/// The scope ID of a ``Scoped`` atom that belongs to the nearest scope.
public struct DefaultScopeID: Hashable, Sendable {
    /// Creates the default scope ID.
    public init() {}
}
