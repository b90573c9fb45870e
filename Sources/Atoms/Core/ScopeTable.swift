/// The scopes of one store: hands out their keys and finds a live scope by key, for restoring
/// scoped atoms and notifying scope observers.
///
/// Scopes are held weakly, so that a dropped scope stops observing.
@MainActor
struct ScopeTable {
    private struct WeakScope {
        weak var state: ScopeState?
    }

    /// The number the next scope's key takes; each store counts from 1.
    private var nextKey = 1
    private var scopes: [ScopeKey: WeakScope] = [:]

    nonisolated init() {}

    /// Whether no scope was ever registered.
    var isEmpty: Bool {
        scopes.isEmpty
    }

    /// A key no other scope of this store has.
    mutating func makeKey() -> ScopeKey {
        defer { nextKey += 1 }
        return ScopeKey(id: nextKey)
    }

    /// Makes a scope findable by its key while it lives.
    mutating func register(_ state: ScopeState) {
        scopes[state.key] = WeakScope(state: state)
    }

    /// The live scope with a key, if it still exists.
    func state(for key: ScopeKey) -> ScopeState? {
        scopes[key]?.state
    }
}
