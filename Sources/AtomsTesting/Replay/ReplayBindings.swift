import Atoms
import AtomsJournal

/// Which recorded atoms a replay's atoms stand for, by their numbers in the journal, and
/// which recorded writes of a transaction it applies: shared by a replay that checks the
/// recording and by a shrink.
@MainActor
final class ReplayBindings {
    /// A recorded atom that the replay drives, checks or watches (a class: the replay looks
    /// one up for each atom at every step, and a copy of its member's closures costs a
    /// reference count each).
    @MainActor
    final class Bound {
        let member: ReplayedMember
        /// As messages name it: today's identity (`StatsAtom`, `ItemAtom[3]`).
        let name: String
        let drives: Bool
        let checks: Bool
        let watches: Bool

        /// Whether the replay writes it by delivering results (an asynchronous atom).
        var delivers: Bool { drives ? member.isDelivered : false }
        /// Whether the replay sets it (a state).
        var sets: Bool { drives ? !member.isDelivered : false }

        init(member: ReplayedMember, name: String, drives: Bool, checks: Bool, watches: Bool) {
            self.member = member
            self.name = name
            self.drives = drives
            self.checks = checks
            self.watches = watches
        }
    }

    /// A recorded atom the replay's atoms cannot stand for.
    struct Mismatch: Error {
        let atom: String
        let detail: String
    }

    /// One recorded write the replay applies, by the atom's number.
    enum Operation: Equatable {
        /// A state takes its recorded value.
        case write(Int)
        /// A state is reset.
        case reset(Int)
        /// An asynchronous atom takes its recorded result; `created` when the transaction
        /// created it (it holds the value from its creation, no transaction of its own).
        case deliver(Int, created: Bool)
    }

    let atoms: [ReplayedAtom]
    /// The single atoms' members, made once, by their index in ``atoms``: each journal number
    /// they are declared under maps to the same one.
    let singles: [Int: ReplayedMember]
    private(set) var bound: [Int: Bound] = [:]
    /// The indices in ``atoms`` of those that matched a declaration bound so far.
    private(set) var matched: Set<Int> = []

    /// Whether every atom named matched a declaration bound so far.
    var matchedEvery: Bool { matched.count == atoms.count }

    init(_ atoms: [ReplayedAtom]) {
        self.atoms = atoms
        var singles: [Int: ReplayedMember] = [:]
        for (index, atom) in atoms.enumerated() where !atom.isFamily {
            if let member = atom.member(nil) { singles[index] = member }
        }
        self.singles = singles
    }

    /// The single atoms' members in the order they were named.
    var singleMembers: [ReplayedMember] {
        singles.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Notes a recorded atom the replay's atoms stand for.
    ///
    /// - Returns: A family member made for it, which the caller watches; `nil` otherwise.
    /// - Throws: ``Mismatch`` when a family's key mapping gives no atom, or another one.
    @discardableResult
    func bind(_ declaration: AtomDeclaration) throws(Mismatch) -> ReplayedMember? {
        var member: ReplayedMember?
        var made: ReplayedMember?
        var name = declaration.displayName
        var drives = false
        var checks = false
        var watches = false
        for (index, atom) in atoms.enumerated() where atom.matches(declaration) {
            matched.insert(index)
            if member == nil {
                member = atom.isFamily ? atom.member(declaration.key) : singles[index]
                guard let found = member else {
                    throw Mismatch(atom: name, detail: "\(atom.name)'s key mapping gives no atom for the recorded key \"\(declaration.key ?? "")\" — return an atom for every key the journal records, or leave the family out")
                }
                guard found.identity.keyDescription == declaration.key else {
                    throw Mismatch(atom: name, detail: "\(atom.name)'s key mapping turns the recorded key \"\(declaration.key ?? "")\" into an atom with key \"\(found.identity.keyDescription ?? "")\" — map each key to the atom it describes")
                }
                if atom.isFamily { made = found }
                name = found.identity.description
            }
            drives = drives || atom.role == .drive
            checks = checks || atom.role == .check
            watches = watches || atom.role == .watch
        }
        guard let member else { return nil }
        bound[declaration.id] = Bound(member: member, name: name, drives: drives, checks: checks, watches: watches)
        return made
    }

    /// The recorded writes of a transaction that the replay applies, in order: the session's
    /// own write (its origin), the values restored, a driven state created again (after a
    /// release) from its recorded value; then each recorded change of a delivered atom, in the
    /// order the line lists them (a result that arrived, or the phase a write restarted).
    func operations(in record: TransactionRecord) -> [Operation] {
        var operations: [Operation] = []
        // A line writes a few atoms: searched in place rather than hashed.
        let values = record.values ?? []
        switch record.cause {
        // `inspector`: a value atoms-inspect wrote into the program, driven as a `set` is.
        case "set", "modify", "reset", "inspector":
            if let origin = record.origin, bound[origin]?.sets == true, values.contains(where: { $0.id == origin }) {
                operations.append(record.cause == "reset" ? .reset(origin) : .write(origin))
            }
        case "restore":
            operations += Set(values.map(\.id)).sorted().filter { bound[$0]?.sets == true }.map(Operation.write)
        default:
            operations += (record.created ?? []).sorted().filter { bound[$0]?.sets == true }.map(Operation.write)
        }
        for entry in values where !entry.isEqualWrite && bound[entry.id]?.delivers == true {
            operations.append(.deliver(entry.id, created: record.created?.contains(entry.id) == true))
        }
        return operations
    }
}
