import AtomsJournalReader

/// A ``WhereExpression`` whose paths are bound to atoms of one journal, ready to evaluate
/// against the values of a state.
///
/// A path's value is null where it leads nowhere at a step: the atom is not live, a member
/// is absent, an index is past the end. An atom's value is its recorded JSON; a value recorded
/// only as a dump (not `Codable`) is that text, and a redacted value is null.
package struct BoundExpression: Sendable {
    /// The expression as parsed.
    package let expression: WhereExpression
    /// For each path as written: the atom it reads, by identity, and the components inside its
    /// value (a family key written as the first subscript, `Family[key]`, is part of the atom).
    private let bindings: [ValuePath: (identity: String, components: [ValuePath.Component])]
    /// The identities the paths read.
    private let identities: Set<String>
    /// The numbers each identity has had in the journal, as learned: an atom released and
    /// seen again after a keyframe is declared again under a new number (one live at a time).
    private var numbers: [String: Set<Int>] = [:]

    /// The atoms the expression reads, by every number learned: the only values a scan needs
    /// to decode.
    package private(set) var atomIDs: Set<Int> = []

    /// Binds each path of `expression` to an atom declared in the journal.
    ///
    /// - Parameters:
    ///   - declarations: Every atom the journal declares.
    ///   - journal: The journal's path, for messages.
    /// - Throws: ``InspectorError`` (usage) for a name that matches no atom, or several.
    package init(_ expression: WhereExpression, declarations: [Int: AtomDeclaration], journal: String) throws(InspectorError) {
        self.expression = expression
        let atoms = declarations.values.sorted { $0.id < $1.id }
        var bindings: [ValuePath: (identity: String, components: [ValuePath.Component])] = [:]
        for path in expression.paths {
            bindings[path] = try Self.bind(path, among: atoms, journal: journal)
        }
        self.bindings = bindings
        identities = Set(bindings.values.map(\.identity))
        learn(declarations.values)
    }

    /// Learns the numbers of the atoms the expression reads from declarations (a state's, or
    /// a transaction's `declare`).
    ///
    /// - Returns: Whether a number was new.
    @discardableResult
    package mutating func learn(_ declarations: some Sequence<AtomDeclaration>) -> Bool {
        var learned = false
        for declaration in declarations where identities.contains(declaration.identityKey) {
            if numbers[declaration.identityKey, default: []].insert(declaration.id).inserted {
                atomIDs.insert(declaration.id)
                learned = true
            }
        }
        return learned
    }

    private static func bind(_ path: ValuePath, among atoms: [AtomDeclaration], journal: String) throws(InspectorError) -> (identity: String, components: [ValuePath.Component]) {
        // `Family[key]` unquoted: the first subscript names a family member, when there is one.
        if !path.quoted, let first = path.components.first {
            let key = switch first {
            case .member(let name): name
            case .index(let index): String(index)
            }
            // One atom may have several numbers, one per stretch of its life.
            let members = atoms.filter { $0.displayName == "\(path.atom)[\(key)]" }.uniqued(by: \.identityKey)
            if members.count == 1 {
                return (members[0].identityKey, Array(path.components.dropFirst()))
            }
        }
        let named = candidates(path.atom, among: atoms).uniqued(by: \.identityKey)
        if named.count == 1 {
            return (named[0].identityKey, path.components)
        }
        if named.isEmpty {
            let known = Set(atoms.map(\.label)).sorted().prefix(8).joined(separator: ", ")
            throw InspectorError(.usage, path: journal, "no atom in the journal is named '\(path.atom)' (column \(path.column)) — atoms: \(known.isEmpty ? "none" : known)")
        }
        let names = named.map { "'\($0.displayName)'" }.prefix(4).joined(separator: ", ")
        throw InspectorError(.usage, path: journal, "'\(path.atom)' (column \(path.column)) names \(named.count) atoms — name one: \(names)")
    }

    /// Atoms whose display name, else label, else module-qualified type is `name`.
    private static func candidates(_ name: String, among atoms: [AtomDeclaration]) -> [AtomDeclaration] {
        for key in [\AtomDeclaration.displayName, \.label, \.type] {
            let found = atoms.filter { $0[keyPath: key] == name }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Whether the expression is `true` with these values (of at least ``atomIDs``).
    package func holds(in values: [Int: ValueEntry]) -> Bool {
        evaluate(expression, values) == .bool(true)
    }

    /// The value a path reads with these values.
    package func value(of path: ValuePath, in values: [Int: ValueEntry]) -> JSONValue {
        // One of an atom's numbers is live at a step in a journal that is not damaged; where a
        // damaged one declares the identity again while it is live, the lowest number with a
        // value is read, as ``CompiledCondition`` reads it.
        guard let binding = bindings[path], let entry = numbers[binding.identity]?.sorted().lazy.compactMap({ values[$0] }).first else {
            return .null
        }
        var value = Self.value(of: entry)
        for component in binding.components {
            value = Self.step(into: value, component)
        }
        return value
    }

    /// An atom's value as a path reads it: its JSON, a dump's text, null when redacted.
    static func value(of entry: ValueEntry) -> JSONValue {
        if entry.redacted == true {
            return .null
        } else if let v = entry.v {
            return v
        } else {
            return entry.dump.map(JSONValue.string) ?? .null
        }
    }

    /// The identity (``AtomsJournalReader/AtomDeclaration/identityKey``) of the atom a path
    /// reads; `nil` for a path the expression does not have.
    package func identity(of path: ValuePath) -> String? {
        bindings[path]?.identity
    }

    /// The numbers a path's atom has had (sorted), and the components inside its value.
    func binding(of path: ValuePath) -> (ids: [Int], components: [ValuePath.Component]) {
        guard let binding = bindings[path] else { return ([], []) }
        return ((numbers[binding.identity] ?? []).sorted(), binding.components)
    }

    static func step(into value: JSONValue, _ component: ValuePath.Component) -> JSONValue {
        switch (component, value) {
        case (.member(let name), .object(let members)):
            if let member = members[name] { return member }
            return name == "count" ? .number(JSONNumber(members.count)) : .null
        case (.member("count"), .array(let elements)):
            return .number(JSONNumber(elements.count))
        case (.member("count"), .string(let text)):
            return .number(JSONNumber(text.count))
        case (.index(let index), .array(let elements)):
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? elements[position] : .null
        default:
            return .null
        }
    }

    private func evaluate(_ expression: WhereExpression, _ values: [Int: ValueEntry]) -> JSONValue {
        switch expression {
        case .literal(let value):
            return value
        case .path(let path):
            return value(of: path, in: values)
        case .not(let operand):
            return .bool(evaluate(operand, values) != .bool(true))
        case .and(let lhs, let rhs):
            return .bool(evaluate(lhs, values) == .bool(true) && evaluate(rhs, values) == .bool(true))
        case .or(let lhs, let rhs):
            return .bool(evaluate(lhs, values) == .bool(true) || evaluate(rhs, values) == .bool(true))
        case .compare(let comparison, let lhs, let rhs):
            return .bool(Self.compare(comparison, evaluate(lhs, values), evaluate(rhs, values)))
        }
    }

    /// `==` and `!=` compare any two values (numbers by value: `1 == 1.0`); the orderings
    /// compare two numbers (integers exactly) or two strings, and are false otherwise.
    static func compare(_ comparison: WhereExpression.Comparison, _ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        let order: Int?
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): order = JSONNumber.compare(a, b)
        case (.string(let a), .string(let b)): order = a == b ? 0 : (a < b ? -1 : 1)
        default: order = nil
        }
        switch comparison {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return order.map { $0 < 0 } ?? false
        case .lessOrEqual: return order.map { $0 <= 0 } ?? false
        case .greater: return order.map { $0 > 0 } ?? false
        case .greaterOrEqual: return order.map { $0 >= 0 } ?? false
        }
    }
}

extension Array {
    /// The elements in order, the first of each key only.
    fileprivate func uniqued(by key: (Element) -> String) -> [Element] {
        var seen = Set<String>()
        return filter { seen.insert(key($0)).inserted }
    }
}
