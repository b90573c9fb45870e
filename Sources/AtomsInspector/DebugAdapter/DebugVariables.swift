import AtomsJournalReader

/// The variables of the current stop: the live atoms, those the step's transaction changed,
/// and the members of structured values, each behind a `variablesReference`.
///
/// References are valid until the position moves (the protocol's rule for a stopped
/// thread): ``reset()`` forgets them.
struct DebugVariables {
    /// The scope of the atoms the step's transaction changed.
    static let changedScope = 1
    /// The scope of every live atom.
    static let atomsScope = 2

    /// What a reference expands into.
    private enum Container {
        /// A structured value, with the expression that reads it.
        case value(JSONValue, path: ValuePath)
    }

    private var containers: [Int: Container] = [:]
    private var nextReference = 3
    /// Whether the atoms can be set (a running program at the present): they are not marked
    /// read-only.
    var isWritable = false

    /// Forgets every reference but the scopes'.
    mutating func reset() {
        containers = [:]
        nextReference = 3
    }

    /// The atoms the transaction that led to `state` wrote or created, sorted as `show`
    /// sorts them.
    static func changed(in state: JournalState, by record: TransactionRecord?) -> [AtomDeclaration] {
        guard let record else { return [] }
        // Changed, not merely written: an atom written an equal value is as it was.
        let ids = Set((record.values ?? []).map(\.id).filter(record.changed) + (record.created ?? []))
        return state.liveAtoms.filter { ids.contains($0.id) }
    }

    /// The variables for a scope's atoms.
    mutating func variables(for atoms: [AtomDeclaration], in state: JournalState) -> [DAPBody.Variable] {
        atoms.compactMap { atom in
            guard let entry = state.values[atom.id] else { return nil }
            let hint = DAPBody.VariablePresentationHint(kind: "data", attributes: isWritable ? nil : ["readOnly"])
            let path = Self.path(of: atom)
            // Shown as `show` shows them, without members: redacted values, and phases with a dump.
            guard entry.redacted != true, entry.phase == nil || entry.dump == nil, let value = entry.v else {
                return DAPBody.Variable(
                    name: atom.displayName, value: entry.displayText, type: atom.type, presentationHint: hint,
                    evaluateName: path.description, variablesReference: 0, namedVariables: nil, indexedVariables: nil
                )
            }
            return variable(named: atom.displayName, value, path: path, type: atom.type, hint: hint)
        }
    }

    /// The path of the variable `name` of a scope's atoms or of a structured value's
    /// reference; `nil` when there is none.
    func path(of name: String, in reference: Int, atoms: [AtomDeclaration]) -> ValuePath? {
        if reference == Self.changedScope || reference == Self.atomsScope {
            return atoms.first { $0.displayName == name }.map(Self.path(of:))
        }
        guard case .value(let value, var path) = containers[reference] else { return nil }
        switch value {
        case .array(let elements):
            guard name.hasPrefix("["), name.hasSuffix("]"), let index = Int(name.dropFirst().dropLast()), elements.indices.contains(index) else { return nil }
            path.components.append(.index(index))
        case .object(let members):
            guard members[name] != nil else { return nil }
            path.components.append(.member(name))
        default:
            return nil
        }
        return path
    }

    /// The children of a structured value's reference; `nil` for an unknown reference.
    mutating func children(of reference: Int) -> [DAPBody.Variable]? {
        guard case .value(let value, let path) = containers[reference] else { return nil }
        switch value {
        case .array(let elements):
            return elements.enumerated().map { index, element in
                var child = path
                child.components.append(.index(index))
                return variable(named: "[\(index)]", element, path: child, type: nil, hint: nil)
            }
        case .object(let members):
            return members.keys.sorted().map { key in
                var child = path
                child.components.append(.member(key))
                return variable(named: key, members[key]!, path: child, type: nil, hint: nil)
            }
        default:
            return []
        }
    }

    /// A variable for a value: a structured one gets a reference to its members.
    mutating func variable(named name: String, _ value: JSONValue, path: ValuePath, type: String?, hint: DAPBody.VariablePresentationHint?) -> DAPBody.Variable {
        let (reference, named, indexed) = expand(value, path: path)
        return DAPBody.Variable(
            name: name, value: Self.preview(value), type: type ?? Self.typeName(value), presentationHint: hint,
            evaluateName: path.description, variablesReference: reference, namedVariables: named, indexedVariables: indexed
        )
    }

    /// A reference for a structured value (0 for a scalar), and its counts of named and
    /// indexed children.
    mutating func expand(_ value: JSONValue, path: ValuePath) -> (Int, Int?, Int?) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            containers[nextReference] = .value(value, path: path)
            nextReference += 1
            return (nextReference - 1, nil, elements.count)
        case .object(let members) where !members.isEmpty:
            containers[nextReference] = .value(value, path: path)
            nextReference += 1
            return (nextReference - 1, members.count, nil)
        default:
            return (0, nil, nil)
        }
    }

    /// The expression that reads an atom's value: its display name, quoted when it is not an
    /// identifier (`'Family[key]'`).
    static func path(of atom: AtomDeclaration) -> ValuePath {
        let name = atom.displayName
        let plain = !name.isEmpty && name.allSatisfy(WhereParser.isIdentifierCharacter) && !(name.first!.isNumber)
        return ValuePath(atom: name, quoted: !plain)
    }

    /// One line for a value: its JSON, shortened past 120 characters.
    static func preview(_ value: JSONValue) -> String {
        let text = value.jsonText
        guard text.count > 120 else { return text }
        return String(text.prefix(117)) + "…"
    }

    /// The JSON type of a value.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array(let elements): "array[\(elements.count)]"
        case .object: "object"
        }
    }
}
