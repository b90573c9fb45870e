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

    /// A single state atom to drive.
    static func driving<Node: StateAtom>(_ atom: Node) -> ReplayedAtom where Node.Produced: Decodable {
        let identity = ReplayedMember.identity(of: atom)
        return ReplayedAtom(role: .drive, name: identity.description, typeName: identity.typeName, key: identity.keyDescription, isFamily: false) { _ in
            ReplayedMember(driving: atom)
        }
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

/// One atom of today's code that stands for a recorded one: how to keep it, read it, and
/// (when driven) write it.
@MainActor
struct ReplayedMember {
    /// Its identity, as the recorder would declare it.
    let identity: AtomIdentity
    /// Watches it from the replay's context, so it stays cached and takes writes.
    let watch: (AtomTestContext, SourceLocation) -> Void
    /// Its cached value, boxed.
    let current: (AtomTestContext) -> Any?
    /// Writes a recorded value, decoded as its type; `nil` for an atom that is only checked.
    let write: ((RecordedWrite, AtomTestContext, SourceLocation) throws -> Void)?
    /// Resets it.
    let reset: (AtomTestContext, SourceLocation) -> Void

    init<Node: Atom>(checking atom: Node) {
        self.init(atom, write: nil)
    }

    init<Node: StateAtom>(driving atom: Node) where Node.Produced: Decodable {
        let last = DrivenValue<Node.Produced>()
        self.init(atom) { recorded, context, location in
            var value = recorded.isUnchanged ? last.value : nil
            // An array changed by a delta from the value written last: decode what changed.
            if value == nil, case .array(let delta)? = recorded.delta, delta.count == 2, delta[0] == .string("a"), case .array(let operations) = delta[1],
               let previous = last.value as? any RecordedArrayPatching {
                value = try previous.patched(by: operations, resolved: recorded.value) as? Node.Produced
            }
            let written = try value ?? RecordedValueSeeds.decoded(recorded.value, as: Node.Produced.self)
            last.value = written
            context.set(written, for: atom, at: location)
        }
    }

    private init<Node: Atom>(_ atom: Node, write: ((RecordedWrite, AtomTestContext, SourceLocation) throws -> Void)?) {
        identity = Self.identity(of: atom)
        watch = { context, location in context.watch(atom, fileID: location.fileID, line: location.line) }
        current = { context in context.lookup(atom) }
        self.write = write
        reset = { context, location in context.reset(atom, at: location) }
    }

    /// The identity the recorder declares an atom of the root store by.
    static func identity<Node: Atom>(of atom: Node) -> AtomIdentity {
        AtomIdentity(atom, scope: nil, names: AtomTypeNames(Node.self))
    }
}
