/// The context passed to an atom's primary function (`value(context:)`, `defaultValue(context:)`):
/// atoms it watches become the atom's dependencies.
///
/// ## Example
/// ```swift
/// struct FilteredTodosAtom: ValueAtom, Hashable {
///     func value(context: Context) -> [Todo] {
///         let filter = context.watch(FilterAtom())
///         return context.watch(TodosAtom()).filter(filter.matches)
///     }
/// }
/// ```
@MainActor
public struct AtomTransactionContext: AtomWatchableContext {
    let store: StoreContext
    let owner: AnyAtomNode
    /// The computation this context belongs to; once superseded, watches no longer add edges.
    let generation: Int

    init(store: StoreContext, owner: AnyAtomNode, generation: Int) {
        self.store = store
        self.owner = owner
        self.generation = generation
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

    /// Watches an atom: it becomes a dependency, and this atom is recomputed when it changes.
    ///
    /// After this computation was superseded (the atom recomputed or was released, e.g. while an
    /// async atom awaited), a watch only reads the value.
    @discardableResult
    public func watch<Node: Atom>(_ atom: Node) -> Node.Produced {
        guard owner.isAlive, owner.generation == generation else {
            return store.engine.read(atom, in: store)
        }
        return store.engine.watch(atom, dependent: owner, in: store)
    }

    /// A handler run when this computation's value is superseded (the atom recomputes) or the
    /// atom is released; use it to cancel work the computation started.
    public var onTermination: (@MainActor () -> Void)? {
        get { owner.generation == generation ? owner.onTermination : nil }
        nonmutating set {
            guard owner.generation == generation, owner.isAlive else {
                newValue?()
                return
            }
            owner.onTermination = newValue
        }
    }
}
