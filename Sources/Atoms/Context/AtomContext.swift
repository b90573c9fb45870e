/// A context to read, write, and otherwise interact with atoms.
///
/// - SeeAlso: ``AtomWatchableContext``
@MainActor
public protocol AtomContext {
    /// The value of an atom, without watching it.
    ///
    /// When the atom is not cached (nothing watches it), a fresh value is computed and not cached.
    ///
    /// - Parameter atom: An atom to read.
    /// - Returns: The value associated with the atom.
    func read<Node: Atom>(_ atom: Node) -> Node.Produced

    /// Sets a new value for a writable atom and notifies its dependents and watchers at once.
    ///
    /// Ignored when the atom is not cached. Setting a value equal to the current one still
    /// notifies (only the `.changes` modifiers filter equal values).
    ///
    /// - Parameters:
    ///   - value: A value to be set.
    ///   - atom: A writable atom to update.
    func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node)

    /// Mutates the cached value of a writable atom, then notifies once.
    ///
    /// - Parameters:
    ///   - atom: A writable atom to modify.
    ///   - body: A value modification body.
    func modify<Node: StateAtom>(_ atom: Node, body: (inout Node.Produced) -> Void)

    /// Refreshes an async atom: restarts its work, waits for it to complete, and returns the
    /// new value (which also becomes the cached value when the atom is cached).
    ///
    /// - Parameter atom: An atom to refresh.
    /// - Returns: The value after the refresh completed.
    @_disfavoredOverload
    @discardableResult
    func refresh<Node: AsyncAtom>(_ atom: Node) async -> Node.Produced

    /// Refreshes an atom with custom refresh behavior (``Refreshable``) and returns the new value.
    ///
    /// - Parameter atom: An atom to refresh.
    /// - Returns: The value after the refresh completed.
    @discardableResult
    func refresh<Node: Refreshable>(_ atom: Node) async -> Node.Produced

    /// Resets an atom: a state atom goes back to its default value, a derived atom recomputes
    /// its own value (its dependencies keep theirs); a ``Resettable`` atom runs its own reset.
    ///
    /// - Parameter atom: An atom to reset.
    func reset<Node: Atom>(_ atom: Node)
}

public extension AtomContext {
    /// Read-write access to a writable atom's value; writing notifies like ``set(_:for:)``.
    ///
    /// Getting the value does not start watching the atom.
    ///
    /// ## Example
    /// ```swift
    /// context[TextAtom()] = "New text"
    /// context[TextAtom()].append(" is mutated!")
    /// ```
    subscript<Node: StateAtom>(_ atom: Node) -> Node.Produced {
        get { read(atom) }
        nonmutating set { set(newValue, for: atom) }
    }
}
