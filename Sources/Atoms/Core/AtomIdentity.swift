/// The identity of one atom, independent of the store that holds it.
///
/// Two atoms are the same when their types, keys and scopes are equal. The identity is used by
/// snapshots (to find an atom again after it was released and re-created) and by anything that
/// records atoms outside the process (it carries a stable, module-qualified type name).
public struct AtomIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
    // Unchecked: `Storage` is immutable, and its `AnyHashable` holds `Atom.Key`, which is
    // `Sendable` by the protocol's requirement.

    /// The fields, shared: an identity is copied into every record of a transaction, and one
    /// reference is cheaper to copy than its seven fields.
    private final class Storage: @unchecked Sendable {
        let type: ObjectIdentifier
        let atomType: any Atom.Type
        let key: AnyHashable
        let scope: ScopeKey?
        let label: String
        let typeName: String
        let keyDescription: String?

        init<Node: Atom>(_ atom: Node, scope: ScopeKey?, names: AtomTypeNames) {
            type = ObjectIdentifier(Node.self)
            atomType = Node.self
            key = AnyHashable(atom.key)
            self.scope = scope
            label = scope.map { "\(names.label) scope:\($0)" } ?? names.label
            typeName = names.typeName
            keyDescription = AtomKeyDescription.of(atom)
        }
    }

    private let storage: Storage

    package var type: ObjectIdentifier { storage.type }
    /// The atom's type, for checks such as whether it is marked redacted.
    public var atomType: any Atom.Type { storage.atomType }
    package var key: AnyHashable { storage.key }
    /// The scope the atom is stored in, or `nil` when it lives at the root.
    public var scope: ScopeKey? { storage.scope }
    /// The upstream graph label: the type's name as `String(describing:)` prints it, plus
    /// ` scope:<key>` for a scoped atom.
    public var label: String { storage.label }
    /// The module-qualified type name (`String(reflecting:)`), stable across processes.
    public var typeName: String { storage.typeName }
    /// A description of the key for atoms whose key is not the atom itself (atom families),
    /// or `nil` when the atom is its own key.
    public var keyDescription: String? { storage.keyDescription }

    /// Identifies this copy's shared storage: equal for copies of one identity (one node's),
    /// so a recorder can look identities up without hashing keys. Two equal identities made
    /// separately have different instances.
    package var instance: ObjectIdentifier { ObjectIdentifier(storage) }

    package init<Node: Atom>(_ atom: Node, scope: ScopeKey?, names: AtomTypeNames) {
        storage = Storage(atom, scope: scope, names: names)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.storage.type == rhs.storage.type && lhs.storage.scope == rhs.storage.scope && lhs.storage.key == rhs.storage.key)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.type)
        hasher.combine(storage.key)
        hasher.combine(storage.scope)
    }

    /// An order of identities that is the same in every run: by label, type name, key
    /// description and scope (hashes, and so the order of a `Set` or `Dictionary` of
    /// identities, change from run to run).
    package static func precedes(_ lhs: Self, _ rhs: Self) -> Bool {
        (lhs.label, lhs.typeName, lhs.keyDescription ?? "", lhs.scope.map { "\($0)" } ?? "")
            < (rhs.label, rhs.typeName, rhs.keyDescription ?? "", rhs.scope.map { "\($0)" } ?? "")
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
