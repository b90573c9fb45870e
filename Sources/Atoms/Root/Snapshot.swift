import AtomsDOT

/// The atoms, values and dependency graph of a store at one point in time.
///
/// Take one with ``AtomViewContext/snapshot()`` or ``AtomTestContext/snapshot()``, or receive one
/// after every committed update through ``AtomRoot/observe(_:)``. Restore it with
/// ``AtomViewContext/restore(_:)``.
///
/// ## Example
/// ```swift
/// let snapshot = context.snapshot()
/// print(snapshot.lookup(CounterAtom()) ?? 0)
/// print(snapshot.graphDescription())
/// ```
public struct Snapshot: CustomStringConvertible {
    let items: [AtomIdentity: AnySnapshotItem]
    /// For each atom, the atoms it watches.
    let dependencies: [AtomIdentity: Set<AtomIdentity>]
    /// For each atom, the locations of the subscribers that watch it.
    let subscriptions: [AtomIdentity: Set<SourceLocation>]

    init(
        items: [AtomIdentity: AnySnapshotItem],
        dependencies: [AtomIdentity: Set<AtomIdentity>],
        subscriptions: [AtomIdentity: Set<SourceLocation>]
    ) {
        self.items = items
        self.dependencies = dependencies
        self.subscriptions = subscriptions
    }

    /// The value the atom had when the snapshot was taken, or `nil` if it was not cached.
    ///
    /// An atom stored at the root is preferred; otherwise the atom's value in the first scope
    /// (by creation order) that held it.
    public func lookup<Node: Atom>(_ atom: Node) -> Node.Produced? {
        let type = ObjectIdentifier(Node.self)
        let key = AnyHashable(atom.key)
        let matches = items.values.filter { $0.identity.type == type && $0.identity.key == key }
        let best = matches.min { ($0.identity.scope?.id ?? 0) < ($1.identity.scope?.id ?? 0) }
        return best?.anyValue as? Node.Produced
    }

    /// The atoms in the snapshot, sorted by label and then key.
    public var atoms: [AtomIdentity] {
        items.keys.sorted { ($0.label, $0.keyDescription ?? "") < ($1.label, $1.keyDescription ?? "") }
    }

    /// The value of an atom in the snapshot, type-erased.
    public func value(of atom: AtomIdentity) -> Any? {
        items[atom]?.anyValue
    }

    /// The atoms that `atom` watches.
    public func dependencies(of atom: AtomIdentity) -> Set<AtomIdentity> {
        dependencies[atom] ?? []
    }

    /// The locations of the subscribers that watch `atom`.
    public func subscriptions(of atom: AtomIdentity) -> Set<SourceLocation> {
        subscriptions[atom] ?? []
    }

    /// The dependency graph in Graphviz DOT, in the upstream format.
    ///
    /// One statement per atom (its label), per edge from an atom to each atom that depends on
    /// it, and per subscriber location watching an atom (a filled node, and an edge labelled
    /// with the line). Statements are de-duplicated and sorted; names are DOT-escaped.
    ///
    /// ## Example
    /// ```
    /// digraph {
    ///   node [shape=box]
    ///   "CounterAtom"
    ///   "CounterAtom" -> "App/main.swift" [label="line:3"]
    ///   "App/main.swift" [style=filled]
    /// }
    /// ```
    public func graphDescription() -> String {
        var statements = Set<String>()
        for identity in items.keys {
            let atom = DOT.quoted(identity.label)
            statements.insert(atom)
            for dependency in dependencies[identity] ?? [] {
                statements.insert("\(DOT.quoted(dependency.label)) -> \(atom)")
            }
            for location in subscriptions[identity] ?? [] {
                let file = DOT.quoted(location.fileID)
                statements.insert("\(file) [style=filled]")
                statements.insert("\(atom) -> \(file) [label=\"line:\(location.line)\"]")
            }
        }
        return DOT.digraph(statements: statements)
    }

    /// A listing of the atoms and their values, one per line, sorted.
    public var description: String {
        let lines = atoms.map { identity in
            "\(identity): \(items[identity]!.anyValue)"
        }
        return "Snapshot(\n" + lines.map { "  " + $0 }.joined(separator: "\n") + (lines.isEmpty ? ")" : "\n)")
    }
}
