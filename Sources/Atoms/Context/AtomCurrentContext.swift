/// A context to read, set, and otherwise interact with atoms, without watching: passed to
/// effects, ``Resettable/reset(context:)`` and ``Refreshable/refresh(context:)``.
@MainActor
public struct AtomCurrentContext: AtomContext {
    let store: StoreContext

    init(store: StoreContext) {
        self.store = store
    }

    /// See ``AtomContext/read(_:)``.
    public func read<Node: Atom>(_ atom: Node) -> Node.Produced {
        store.engine.read(atom, in: store)
    }

    /// See ``AtomContext/set(_:for:at:)``.
    public func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node, at location: SourceLocation) {
        store.engine.set(value, for: atom, in: store, location: location)
    }

    /// See ``AtomContext/modify(_:at:body:)``.
    public func modify<Node: StateAtom>(_ atom: Node, at location: SourceLocation, body: (inout Node.Produced) -> Void) {
        store.engine.modify(atom, in: store, location: location, body: body)
    }

    /// See ``AtomContext/refresh(_:at:)-async``.
    @_disfavoredOverload
    @discardableResult
    public func refresh<Node: AsyncAtom>(_ atom: Node, at location: SourceLocation) async -> Node.Produced {
        await store.engine.refresh(atom, in: store, location: location)
    }

    /// See ``AtomContext/refresh(_:at:)-custom``.
    @discardableResult
    public func refresh<Node: Refreshable>(_ atom: Node, at location: SourceLocation) async -> Node.Produced {
        await store.engine.refresh(atom, in: store, location: location)
    }

    /// See ``AtomContext/reset(_:at:)``.
    public func reset<Node: Atom>(_ atom: Node, at location: SourceLocation) {
        store.engine.reset(atom, in: store, location: location)
    }
}
