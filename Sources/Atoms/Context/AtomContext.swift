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
    /// notifies (only the `.changes` modifiers filter equal values). Call
    /// ``set(_:for:fileID:line:)``, which records the caller's position.
    ///
    /// - Parameters:
    ///   - value: A value to be set.
    ///   - atom: A writable atom to update.
    ///   - location: The write site the transaction records.
    func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node, at location: SourceLocation)

    /// Mutates the value of a writable atom, then notifies once. As upstream, `body` works on
    /// a copy: reads inside it see the value before the change.
    ///
    /// - Parameters:
    ///   - atom: A writable atom to modify.
    ///   - location: The write site the transaction records.
    ///   - body: A value modification body.
    func modify<Node: StateAtom>(_ atom: Node, at location: SourceLocation, body: (inout Node.Produced) -> Void)

    /// Refreshes an async atom: restarts its work, waits for it to complete, and returns the
    /// new value (which also becomes the cached value when the atom is cached).
    ///
    /// - Parameters:
    ///   - atom: An atom to refresh.
    ///   - location: The write site the transaction records.
    /// - Returns: The value after the refresh completed.
    @_disfavoredOverload
    @discardableResult
    func refresh<Node: AsyncAtom>(_ atom: Node, at location: SourceLocation) async -> Node.Produced

    /// Refreshes an atom with custom refresh behavior (``Refreshable``) and returns the new value.
    ///
    /// - Parameters:
    ///   - atom: An atom to refresh.
    ///   - location: The write site the transaction records.
    /// - Returns: The value after the refresh completed.
    @discardableResult
    func refresh<Node: Refreshable>(_ atom: Node, at location: SourceLocation) async -> Node.Produced

    /// Resets an atom: a state atom goes back to its default value, a derived atom recomputes
    /// its own value (its dependencies keep theirs); a ``Resettable`` atom runs its own reset.
    ///
    /// - Parameters:
    ///   - atom: An atom to reset.
    ///   - location: The write site the transaction records.
    func reset<Node: Atom>(_ atom: Node, at location: SourceLocation)
}

/// Upstream's calls. Each records the caller's `#fileID`/`#line` as the transaction's write site
/// (the journal's "which line wrote this"); the defaults keep upstream code compiling unchanged.
public extension AtomContext {
    /// Sets a new value for a writable atom; see ``set(_:for:at:)``.
    func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node, fileID: String = #fileID, line: UInt = #line) {
        set(value, for: atom, at: SourceLocation(fileID: fileID, line: line))
    }

    /// Mutates the value of a writable atom; see ``modify(_:at:body:)``.
    func modify<Node: StateAtom>(_ atom: Node, fileID: String = #fileID, line: UInt = #line, body: (inout Node.Produced) -> Void) {
        modify(atom, at: SourceLocation(fileID: fileID, line: line), body: body)
    }

    /// Refreshes an async atom; see ``refresh(_:at:)-async``.
    @_disfavoredOverload
    @discardableResult
    func refresh<Node: AsyncAtom>(_ atom: Node, fileID: String = #fileID, line: UInt = #line) async -> Node.Produced {
        await refresh(atom, at: SourceLocation(fileID: fileID, line: line))
    }

    /// Refreshes an atom with custom refresh behavior; see ``refresh(_:at:)-custom``.
    @discardableResult
    func refresh<Node: Refreshable>(_ atom: Node, fileID: String = #fileID, line: UInt = #line) async -> Node.Produced {
        await refresh(atom, at: SourceLocation(fileID: fileID, line: line))
    }

    /// Resets an atom; see ``reset(_:at:)``.
    func reset<Node: Atom>(_ atom: Node, fileID: String = #fileID, line: UInt = #line) {
        reset(atom, at: SourceLocation(fileID: fileID, line: line))
    }
}

public extension AtomContext {
    /// Read-write access to a writable atom's value; writing notifies like ``set(_:for:)``.
    ///
    /// Getting the value does not start watching the atom. A write records the caller's
    /// `#fileID`/`#line` as its write site.
    ///
    /// ## Example
    /// ```swift
    /// context[TextAtom()] = "New text"
    /// context[TextAtom()].append(" is mutated!")
    /// ```
    subscript<Node: StateAtom>(_ atom: Node, fileID: String = #fileID, line: UInt = #line) -> Node.Produced {
        get { read(atom) }
        nonmutating set { set(newValue, for: atom, at: SourceLocation(fileID: fileID, line: line)) }
    }
}
