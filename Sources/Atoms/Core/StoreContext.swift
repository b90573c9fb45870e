/// Where an operation runs: the store, and the scope (if any) whose overrides apply.
@MainActor
struct StoreContext {
    let engine: StoreEngine
    /// The innermost scope, or `nil` at the root.
    let scope: ScopeState?

    /// The overrides that apply in this context.
    var overrides: OverrideContainer {
        scope?.overrides ?? engine.rootOverrides
    }

    /// Decides where an atom is stored when used from this context and which overrides apply.
    ///
    /// An atom that a scope overrides is stored in that scope; a ``Scoped`` atom in the scope
    /// its ID names; any other at the root, where the root's overrides apply (to scoped atoms
    /// too, as upstream).
    ///
    /// - Returns: The scope key to store the atom under (`nil`: the root), the overrides the
    ///   atom consults each time it produces a value, and the context the atom's own
    ///   computation runs in.
    func resolve<Node: Atom>(_ atom: Node) -> (scope: ScopeKey?, overrides: OverrideContainer, store: StoreContext) {
        if let scope {
            // (A scope that inherits the root shares the root's overrides: its atoms stay at
            // the root.)
            if scope.overrides !== engine.rootOverrides, scope.overrides.override(for: atom) != nil {
                return (scope.key, scope.overrides, self)
            }
            if let scoped = atom as? any Scoped, let owner = scope.nearest(matching: scoped.anyScopeID) {
                return (owner.key, engine.rootOverrides, StoreContext(engine: engine, scope: owner))
            }
        }
        return (nil, engine.rootOverrides, StoreContext(engine: engine, scope: nil))
    }
}

/// One scope: its key, overrides and observers, and its parent for scope-ID matching.
@MainActor
final class ScopeState {
    let key: ScopeKey
    /// The identifier atoms use to pick this scope (``Scoped/scopeID``), if one was given.
    let id: AnyHashable?
    let overrides: OverrideContainer
    var observers: [@MainActor (Snapshot) -> Void] = []
    let parent: ScopeState?

    init(key: ScopeKey, id: AnyHashable?, overrides: OverrideContainer, parent: ScopeState?) {
        self.key = key
        self.id = id
        self.overrides = overrides
        self.parent = parent
    }

    /// The nearest scope (this one or an ancestor) that a scoped atom with `scopeID` belongs to:
    /// the nearest scope of all for ``DefaultScopeID``, otherwise the nearest with that ID.
    func nearest(matching scopeID: AnyHashable) -> ScopeState? {
        if scopeID.base is DefaultScopeID {
            return self
        }
        var current: ScopeState? = self
        while let scope = current {
            if scope.id == scopeID {
                return scope
            }
            current = scope.parent
        }
        return nil
    }
}
