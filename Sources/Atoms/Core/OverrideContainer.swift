/// Overrides registered on a root, a test context or a scope: for single atoms and whole types.
///
/// (Its tables are read on every node creation; like the engine's hot properties they skip
/// dynamic exclusivity checks: all access is main-actor serialized and never `inout` across
/// user code.)
@MainActor
final class OverrideContainer {
    @exclusivity(unchecked) private var instanceOverrides: [ObjectIdentifier: AnyObject] = [:]
    @exclusivity(unchecked) private var typeOverrides: [ObjectIdentifier: AnyObject] = [:]

    nonisolated init() {}

    /// Whether no override is registered (lets lookups skip hashing).
    var isEmpty: Bool {
        instanceOverrides.isEmpty && typeOverrides.isEmpty
    }

    /// Overrides one atom, identified by its key.
    func addOverride<Node: Atom>(for atom: Node, with value: @escaping @MainActor (Node) -> Node.Produced) {
        let id = ObjectIdentifier(Node.self)
        let table = (instanceOverrides[id] as? InstanceOverrides<Node>) ?? InstanceOverrides<Node>()
        table.values[atom.key] = value
        instanceOverrides[id] = table
    }

    /// Overrides every atom of a type.
    func addOverride<Node: Atom>(for type: Node.Type, with value: @escaping @MainActor (Node) -> Node.Produced) {
        typeOverrides[ObjectIdentifier(Node.self)] = TypeOverride<Node>(value: value)
    }

    /// The override for the atom: an instance override wins over a type override.
    func override<Node: Atom>(for atom: Node) -> (@MainActor (Node) -> Node.Produced)? {
        guard !isEmpty else {
            return nil
        }
        let id = ObjectIdentifier(Node.self)
        if let table = instanceOverrides[id], let value = unsafeDowncast(table, to: InstanceOverrides<Node>.self).values[atom.key] {
            return value
        }
        if let type = typeOverrides[id] {
            return unsafeDowncast(type, to: TypeOverride<Node>.self).value
        }
        return nil
    }
}

@MainActor
private final class InstanceOverrides<Node: Atom> {
    var values: [Node.Key: @MainActor (Node) -> Node.Produced] = [:]
}

@MainActor
private final class TypeOverride<Node: Atom> {
    let value: @MainActor (Node) -> Node.Produced

    init(value: @escaping @MainActor (Node) -> Node.Produced) {
        self.value = value
    }
}
