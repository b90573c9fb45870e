import AtomsDOT

/// The recorded state of the store at one step: live atoms, their values, the dependency graph
/// and the subscriptions.
public struct JournalState: Sendable, Equatable {
    /// The step: the state after this transaction (the first keyframe's step before any).
    public private(set) var step: Int
    /// The atoms declared by the keyframe this state was read from and by the transactions
    /// since, by number: every live atom and every atom the graph refers to, and some atoms
    /// released before (a keyframe declares only what is live, so a state read from an earlier
    /// keyframe knows more of them).
    public private(set) var declarations: [Int: AtomDeclaration]
    /// The values of the live atoms, by number (of those asked for, when the state was read
    /// for some atoms only: ``JournalReader/state(at:decodingValuesOf:)``).
    public private(set) var values: [Int: ValueEntry]
    /// The live atoms' numbers, whether or not their values were decoded.
    public private(set) var liveIDs: Set<Int>
    /// Dependency edges between live atoms.
    public private(set) var edges: Set<EdgeEntry>
    /// Subscriptions to live atoms.
    public private(set) var subscriptions: Set<SubscriptionEntry>

    /// The state a keyframe holds.
    ///
    /// - Parameters:
    ///   - keyframe: The keyframe.
    ///   - undecoded: Live atoms whose values were left out of `keyframe.values`.
    public init(keyframe: KeyframeRecord, undecoded: [Int] = []) {
        step = keyframe.seq
        declarations = Dictionary(keyframe.atoms.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        values = Dictionary(keyframe.values.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        liveIDs = Set(values.keys).union(undecoded)
        edges = Set(keyframe.edges)
        subscriptions = Set(keyframe.subs)
    }

    /// Checks that every atom the state refers to (live atoms, edges, subscriptions) is
    /// declared, as ``apply(_:decoding:)`` checks each transaction.
    ///
    /// - Throws: A description of the first reference to an undeclared atom.
    package func checkReferences() throws(StateError) {
        // Unsorted on the way (a keyframe is read on every seek); the smallest offender is
        // named, so the message is the same in every process.
        let undeclared: (Int) -> Bool = { declarations[$0] == nil }
        if let id = liveIDs.filter(undeclared).min() {
            throw StateError(message: "holds a value of atom \(id), which is not declared")
        }
        if let id = edges.flatMap({ [$0.from, $0.to] }).filter(undeclared).min() {
            throw StateError(message: "has an edge of atom \(id), which is not declared")
        }
        if let id = subscriptions.map(\.atom).filter(undeclared).min() {
            throw StateError(message: "has a subscription to atom \(id), which is not declared")
        }
    }

    /// Applies one transaction's changes.
    ///
    /// - Parameters:
    ///   - transaction: The transaction.
    ///   - decoding: The atoms whose values this state keeps (all by default); the others
    ///     are only tracked as live or not.
    /// - Throws: A description of the problem when the record refers to an undeclared atom, or
    ///   a patch or delta does not fit the atom's previous value.
    public mutating func apply(_ transaction: TransactionRecord, decoding: (Int) -> Bool = { _ in true }) throws(StateError) {
        // Every reference is checked before anything changes, in the order every reader
        // checks them, against the atoms declared before and by this transaction: a line with
        // an undeclared atom gets one verdict, and leaves the state as it was. (A value that
        // does not fit its atom's previous one is found while applying: the entries before it
        // are then applied. Readers hand states over by value, so a caller's copy is whole.)
        let (declarations, declared) = (self.declarations, transaction.declare ?? [])
        let declaredNow = declared.isEmpty ? [] : Set(declared.lazy.map(\.id))
        try transaction.forEachAtomReference { (id: Int) throws(StateError) in
            // Looked up by index: `declarations[id] != nil` would copy the declaration out.
            guard declarations.index(forKey: id) != nil || declaredNow.contains(id) else {
                throw StateError(message: DeclaredAtoms.undeclaredMessage(id))
            }
        }
        for declaration in declared {
            self.declarations[declaration.id] = declaration
        }
        for value in transaction.values ?? [] {
            liveIDs.insert(value.id)
            if decoding(value.id) {
                values[value.id] = try resolved(value)
            }
        }
        for edge in transaction.edgesAdded ?? [] {
            edges.insert(edge)
        }
        for edge in transaction.edgesRemoved ?? [] {
            edges.remove(edge)
        }
        for subscription in transaction.subsAdded ?? [] {
            subscriptions.insert(subscription)
        }
        for subscription in transaction.subsRemoved ?? [] {
            subscriptions.remove(subscription)
        }
        for id in transaction.released ?? [] {
            values[id] = nil
            liveIDs.remove(id)
        }
        step = transaction.seq
    }

    /// Moves to step `seq` for a transaction that only writes values this state does not keep,
    /// of atoms already declared and live: applying it would change nothing else
    /// (``TransactionWalk`` checks that on the line's bytes).
    mutating func skip(to seq: Int) {
        step = seq
    }

    /// Sets a kept atom's value written whole by a transaction ``skip(to:)`` passed
    /// (``TransactionWalk/settle(_:)``), as applying it would have.
    mutating func settle(_ entry: ValueEntry) {
        values[entry.id] = entry
    }

    /// Takes an atom's value at this step read by another reader (by seeking), so that a walk
    /// that did not resolve it resolves it from here on (``TransactionWalk/resolveValues(of:)``).
    package mutating func adopt(_ entry: ValueEntry) {
        values[entry.id] = entry
    }

    /// The entry with its patch or delta applied to the atom's current value.
    private mutating func resolved(_ entry: ValueEntry) throws(StateError) -> ValueEntry {
        if entry.unchanged == true {
            guard let previous = values[entry.id] else {
                throw StateError(message: "says atom \(entry.id) is unchanged, but it has no recorded value")
            }
            return previous
        }
        if let delta = entry.delta {
            guard var value = values[entry.id]?.v else {
                throw StateError(message: "changes atom \(entry.id) by a delta, but it has no recorded JSON value")
            }
            // Taken out of the state while the delta applies, so that a change of one element
            // of a large array changes it in place (another state sharing it keeps its copy).
            values[entry.id]?.v = nil
            do {
                try ValueDelta.apply(delta, to: &value)
            } catch {
                values[entry.id]?.v = value
                throw StateError(message: "a delta of atom \(entry.id) does not fit its value: \(error.message)")
            }
            return ValueEntry(id: entry.id, v: value)
        }
        guard let patch = entry.patch else {
            return entry
        }
        guard case .object(var members)? = values[entry.id]?.v else {
            throw StateError(message: "patches atom \(entry.id), whose value is not a recorded object")
        }
        members.merge(patch) { $1 }
        for name in entry.unset ?? [] {
            members[name] = nil
        }
        return ValueEntry(id: entry.id, v: .object(members))
    }

    /// A problem applying a record.
    public struct StateError: Error, Equatable, Sendable {
        /// What is wrong.
        public let message: String
    }

    /// The live atoms, sorted by display name.
    public var liveAtoms: [AtomDeclaration] {
        liveIDs.compactMap { declarations[$0] }.sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) }
    }

    /// Live atoms matching a name: the display name (`label[key]`), the label, or the
    /// module-qualified type; `*` matches any run of characters.
    public func atoms(matching pattern: String) -> [AtomDeclaration] {
        let glob = Glob(pattern)
        return liveAtoms.filter(glob.matches)
    }

    /// Names that tell every live atom apart: the label, or `label[key]` where atoms of one
    /// family would otherwise share a label.
    public func distinctNames() -> [Int: String] {
        let live = liveAtoms
        let shared = Dictionary(grouping: live, by: \.label).filter { $0.value.count > 1 }
        return Dictionary(uniqueKeysWithValues: live.map { ($0.id, shared[$0.label] == nil ? $0.label : $0.displayName) })
    }

    /// The dependency graph in the upstream `graphDescription()` DOT format.
    ///
    /// - Parameter distinguishingFamilies: Name atom-family members `label[key]` instead of
    ///   the upstream label, which they share.
    public func graphDescription(distinguishingFamilies: Bool = false) -> String {
        let names = distinguishingFamilies ? distinctNames() : Dictionary(uniqueKeysWithValues: liveAtoms.map { ($0.id, $0.label) })
        var statements = Set<String>()
        for (id, name) in names {
            statements.insert(DOT.quoted(name))
            _ = id
        }
        for edge in edges {
            guard let from = names[edge.from], let to = names[edge.to] else { continue }
            statements.insert("\(DOT.quoted(from)) -> \(DOT.quoted(to))")
        }
        for subscription in subscriptions {
            guard let atom = names[subscription.atom] else { continue }
            let (file, line) = Self.split(location: subscription.at)
            statements.insert("\(DOT.quoted(file)) [style=filled]")
            statements.insert("\(DOT.quoted(atom)) -> \(DOT.quoted(file)) [label=\(DOT.quoted("line:\(line)"))]")
        }
        return DOT.digraph(statements: statements)
    }

    /// `fileID:line` split at the last colon.
    static func split(location: String) -> (file: String, line: String) {
        guard let colon = location.lastIndex(of: ":") else { return (location, "0") }
        return (String(location[..<colon]), String(location[location.index(after: colon)...]))
    }
}

/// A name pattern where `*` matches any run of characters (and nothing else is special).
package struct Glob: Sendable {
    private let pattern: [Character]

    /// Creates a pattern.
    package init(_ pattern: String) {
        self.pattern = Array(pattern)
    }

    /// Whether `text` matches the whole pattern.
    ///
    /// Compares characters as `String` does, without Foundation (whose searches mishandle a
    /// NUL in the pattern); backtracks to the last `*` only.
    /// - Complexity: O(*n*·*m*) for a text of *n* and a pattern of *m* characters.
    package func matches(_ text: String) -> Bool {
        let text = Array(text)
        var textIndex = 0
        var patternIndex = 0
        var lastStar: (pattern: Int, text: Int)?
        while textIndex < text.count {
            if patternIndex < pattern.count, pattern[patternIndex] == "*" {
                lastStar = (patternIndex, textIndex)
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == text[textIndex] {
                patternIndex += 1
                textIndex += 1
            } else if let star = lastStar {
                // Let the last `*` take one more character and retry from there.
                lastStar = (star.pattern, star.text + 1)
                patternIndex = star.pattern + 1
                textIndex = star.text + 1
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "*" {
            patternIndex += 1
        }
        return patternIndex == pattern.count
    }

    /// Whether the pattern names an atom: its display name (`label[key]`), its label or its
    /// module-qualified type. The one rule every command selects atoms by.
    package func matches(_ atom: AtomDeclaration) -> Bool {
        matches(atom.displayName) || matches(atom.label) || matches(atom.type)
    }
}
