import Atoms
import AtomsJournal

/// An atom a ``JournalReplay`` was told about: which recorded atoms it stands for, and what
/// the replay does with them.
@MainActor
struct ReplayedAtom {
    /// What the replay does with the atom.
    enum Role {
        /// Its recorded writes are applied.
        case drive
        /// Today's value is compared with the recorded one.
        case check
        /// Today's value is read (by a shrink's condition), never compared with the recording.
        case watch
    }

    let role: Role
    /// As the test names it: `StatsAtom`, or `ItemAtom[*]` for a family.
    let name: String
    /// The module-qualified type the journal declares it by.
    let typeName: String
    /// The single atom's key description (`nil` when it is its own key); unused for a family.
    let key: String?
    /// Whether it stands for every member of a family, mapped from its recorded key.
    let isFamily: Bool
    /// The atom for a recorded key (`nil` for a single atom), or `nil` when the test's
    /// mapping gives none.
    let member: (String?) -> ReplayedMember?

    /// Whether a recorded declaration is this atom (or a member of this family).
    func matches(_ declaration: AtomDeclaration) -> Bool {
        declaration.scope == nil && declaration.type == typeName && (isFamily ? declaration.key != nil : declaration.key == key)
    }

    /// A single atom to check.
    static func checking<Node: Atom>(_ atom: Node) -> ReplayedAtom {
        let identity = ReplayedMember.identity(of: atom)
        return ReplayedAtom(role: .check, name: identity.description, typeName: identity.typeName, key: identity.keyDescription, isFamily: false) { _ in
            ReplayedMember(checking: atom)
        }
    }

    /// A family to check, its members made from their recorded keys.
    static func checking<Node: Atom>(_ family: Node.Type, key: @escaping (String) -> Node?) -> ReplayedAtom {
        let names = AtomTypeNames(family)
        return ReplayedAtom(role: .check, name: "\(names.label)[*]", typeName: names.typeName, key: nil, isFamily: true) { recorded in
            recorded.flatMap(key).map(ReplayedMember.init(checking:))
        }
    }

    /// A single atom to watch: read by a shrink's condition, never compared.
    static func watching<Node: Atom>(_ atom: Node) -> ReplayedAtom {
        let identity = ReplayedMember.identity(of: atom)
        return ReplayedAtom(role: .watch, name: identity.description, typeName: identity.typeName, key: identity.keyDescription, isFamily: false) { _ in
            ReplayedMember(checking: atom)
        }
    }

    /// A single state atom to drive.
    static func driving<Node: StateAtom>(_ atom: Node) -> ReplayedAtom where Node.Produced: Decodable {
        let identity = ReplayedMember.identity(of: atom)
        return ReplayedAtom(role: .drive, name: identity.description, typeName: identity.typeName, key: identity.keyDescription, isFamily: false) { _ in
            ReplayedMember(driving: atom)
        }
    }

    /// A single atom whose recorded values are delivered (an asynchronous phase, a debounced
    /// or derived value): `member` makes the member that overrides and delivers it.
    static func delivering<Node: Atom>(_ atom: Node, member: @escaping () -> ReplayedMember) -> ReplayedAtom {
        let identity = ReplayedMember.identity(of: atom)
        let made = member()
        return ReplayedAtom(role: .drive, name: identity.description, typeName: identity.typeName, key: identity.keyDescription, isFamily: false) { _ in made }
    }

    /// A family of state atoms to drive, its members made from their recorded keys.
    static func driving<Node: StateAtom>(_ family: Node.Type, key: @escaping (String) -> Node?) -> ReplayedAtom where Node.Produced: Decodable {
        let names = AtomTypeNames(family)
        return ReplayedAtom(role: .drive, name: "\(names.label)[*]", typeName: names.typeName, key: nil, isFamily: true) { recorded in
            recorded.flatMap(key).map(ReplayedMember.init(driving:))
        }
    }
}

/// A recorded value to write: the value after the transaction, and the delta that made it
/// from the value the replay wrote last (`nil` to decode the whole value).
struct RecordedWrite {
    let value: JSONValue
    let delta: JSONValue?
    /// Whether the recorded write was of a value equal to the one the replay wrote last.
    let isUnchanged: Bool
}

/// An atom as a journal declares it at the root: its module-qualified type and key.
struct ReplayedAtomKey: Hashable {
    let type: String
    let key: String?

    init(type: String, key: String?) {
        self.type = type
        self.key = key
    }

    init(_ identity: AtomIdentity) {
        self.init(type: identity.typeName, key: identity.keyDescription)
    }
}
