/// The identity of one atom, independent of the store that holds it.
///
/// Two atoms are the same when their types, keys and scopes are equal. The identity is used by
/// snapshots (to find an atom again after it was released and re-created) and by anything that
/// records atoms outside the process (it carries a stable, module-qualified type name).
public struct AtomIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
    // `AnyHashable` holds `Atom.Key`, which is `Sendable` by the protocol's requirement.
    package let type: ObjectIdentifier
    /// The atom's type, for checks such as whether it is marked redacted.
    public let atomType: any Atom.Type
    package let key: AnyHashable
    /// The scope the atom is stored in, or `nil` when it lives at the root.
    public let scope: ScopeKey?
    /// The upstream graph label: the type's name as `String(describing:)` prints it, plus
    /// ` scope:<key>` for a scoped atom.
    public let label: String
    /// The module-qualified type name (`String(reflecting:)`), stable across processes.
    public let typeName: String
    /// A description of the key for atoms whose key is not the atom itself (atom families),
    /// or `nil` when the atom is its own key.
    public let keyDescription: String?

    package init<Node: Atom>(_ atom: Node, scope: ScopeKey?, names: AtomTypeNames) {
        self.type = ObjectIdentifier(Node.self)
        self.atomType = Node.self
        self.key = AnyHashable(atom.key)
        self.scope = scope
        self.label = scope.map { "\(names.label) scope:\($0)" } ?? names.label
        self.typeName = names.typeName
        self.keyDescription = AtomKeyDescription.of(atom)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.scope == rhs.scope && lhs.key == rhs.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(key)
        hasher.combine(scope)
    }

    /// The label, followed by the key in brackets for an atom family member.
    public var description: String {
        keyDescription.map { "\(label)[\($0)]" } ?? label
    }
}

/// The names of one atom type, computed once per type.
package struct AtomTypeNames: Sendable {
    /// `String(describing:)` of the type: the upstream graph label.
    package let label: String
    /// `String(reflecting:)` of the type: module-qualified.
    package let typeName: String

    package init(_ type: Any.Type) {
        label = String(describing: type)
        typeName = String(reflecting: type)
    }
}

/// How an atom's key is described in identities: `nil` when the key tells nothing beyond the
/// type (the atom is its own key, or a modifier of such an atom without parameters).
enum AtomKeyDescription {
    static func of<Node: Atom>(_ atom: Node) -> String? {
        describe(atom.key, isAtomItself: Node.Key.self == Node.self)
    }

    static func describe<Key>(_ key: Key, isAtomItself: Bool) -> String? {
        if let describing = key as? any AtomKeyDescribing {
            return describing.keyDescription
        }
        return isAtomItself ? nil : String(describing: key)
    }
}

/// A key that describes itself for identities (modified atoms' keys, modifier keys).
protocol AtomKeyDescribing {
    /// The description, or `nil` when the key tells nothing beyond the type.
    var keyDescription: String? { get }
}
