/// A scope below a root or another scope: what `AtomScope` is as a SwiftUI view upstream.
///
/// ``Scoped`` atoms used through a scope's contexts are stored per scope; overrides made with
/// ``scopedOverride(_:with:)-(Node,_)`` apply only to contexts of this scope (not nested ones), and the
/// overridden atoms are stored in the scope. ``scopedObserve(_:)`` sees updates of the atoms
/// stored in this scope.
///
/// ## Example
/// ```swift
/// let left = AtomScope(root: root)
/// let right = AtomScope(root: root)
/// left.viewContext()[SearchQueryAtom()] = "a"   // `right` keeps its own query
/// ```
@MainActor
public final class AtomScope {
    let state: ScopeState
    let engine: StoreEngine

    /// Creates a scope directly below a root.
    ///
    /// - Parameter id: The ID that ``Scoped`` atoms name (``Scoped/scopeID``) to be stored here.
    public convenience init(id: (any Hashable & Sendable)? = nil, root: AtomRoot) {
        self.init(id: id, engine: root.store.engine, parent: nil)
    }

    /// Creates a scope nested in another scope.
    public convenience init(id: (any Hashable & Sendable)? = nil, parent: AtomScope) {
        self.init(id: id, engine: parent.engine, parent: parent.state)
    }

    /// Creates a scope that inherits a context's store, scope and overrides completely.
    public init(inheriting context: AtomViewContext) {
        engine = context.store.engine
        if let scope = context.store.scope {
            state = scope
        } else {
            state = ScopeState(key: engine.scopes.makeKey(), id: nil, overrides: engine.rootOverrides, parent: nil)
            inheritsRoot = true
        }
        engine.scopes.register(state)
    }

    private var inheritsRoot = false

    private init(id: (any Hashable & Sendable)?, engine: StoreEngine, parent: ScopeState?) {
        self.engine = engine
        state = ScopeState(
            key: engine.scopes.makeKey(),
            id: id.map { AnyHashable($0) },
            overrides: OverrideContainer(),
            parent: parent
        )
        engine.scopes.register(state)
    }

    /// The key scoped atoms of this scope are stored under (shown as ` scope:<key>` in graphs).
    public var key: ScopeKey {
        state.key
    }

    /// Overrides one atom within this scope only.
    @discardableResult
    public func scopedOverride<Node: Atom>(_ atom: Node, with value: @escaping @MainActor (Node) -> Node.Produced) -> Self {
        state.overrides.addOverride(for: atom, with: value)
        return self
    }

    /// Overrides every atom of a type within this scope only.
    @discardableResult
    public func scopedOverride<Node: Atom>(_ atomType: Node.Type, with value: @escaping @MainActor (Node) -> Node.Produced) -> Self {
        state.overrides.addOverride(for: atomType, with: value)
        return self
    }

    /// Calls `onUpdate` with a snapshot after each committed update of an atom stored in this scope.
    @discardableResult
    public func scopedObserve(_ onUpdate: @escaping @MainActor (Snapshot) -> Void) -> Self {
        state.observers.append(onUpdate)
        engine.observers.recordChanges()
        return self
    }

    /// Creates a subscriber context in this scope, located at the caller's `#fileID`/`#line`.
    public func viewContext(
        fileID: String = #fileID,
        line: UInt = #line,
        onUpdate: @escaping @MainActor () -> Void = {}
    ) -> AtomViewContext {
        AtomViewContext(
            store: StoreContext(engine: engine, scope: inheritsRoot ? nil : state),
            location: SourceLocation(fileID: fileID, line: line),
            onUpdate: onUpdate
        )
    }
}
