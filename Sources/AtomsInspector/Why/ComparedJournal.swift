import AtomsJournalReader

/// One side of a comparison: a journal walked transaction by transaction, with its atoms
/// named by identity (type, key, scope) rather than by the numbers this journal gave them.
struct ComparedJournal {
    let journal: InspectedJournal
    private(set) var state: JournalState
    private let ignore: [Glob]
    /// Each declared atom's numbers by identity, smallest first, kept up to date as
    /// transactions declare atoms: an atom released and seen again after a keyframe is
    /// declared again under a new number (and two atoms may share an identity).
    private var byIdentity: [String: [Int]] = [:]

    /// Walks the journal's transactions in order, on the engine every walk takes.
    private let walk: TransactionWalk

    init(_ journal: InspectedJournal, ignoring ignore: [Glob]) throws(InspectorError) {
        self.journal = journal
        self.ignore = ignore
        state = try journal.state(at: journal.reader.firstStep)
        walk = TransactionWalk(everyTransactionOf: journal.reader, after: state, decodingValuesOf: nil)
        declare(Array(state.declarations.values))
    }

    private mutating func declare(_ atoms: [AtomDeclaration]) {
        for atom in atoms {
            var numbers = byIdentity[atom.identityKey, default: []]
            if !numbers.contains(atom.id) {
                numbers.append(atom.id)
                numbers.sort()
                byIdentity[atom.identityKey] = numbers
            }
        }
    }

    /// The number of transactions.
    var count: Int { journal.reader.transactionCount }

    /// Applies the journal's `index`-th transaction (1-based) and returns it. Transactions are
    /// applied in order: `index` is the one after the last applied.
    mutating func advance(to index: Int) throws(InspectorError) -> TransactionRecord {
        let record: TransactionRecord
        do {
            record = try nextRecord()
        } catch {
            throw InspectorError(error)
        }
        if let declared = record.declare {
            declare(declared)
        }
        return record
    }

    /// The next transaction, applied. A walk of every transaction skips none, so the loop
    /// runs once; past the last step the walk throws, as the reader words it.
    private mutating func nextRecord() throws(JournalError) -> TransactionRecord {
        while true {
            if let record = try walk.advance(&state) { return record }
        }
    }

    func identity(_ id: Int) -> String {
        state.declarations[id]?.identityKey ?? "#\(id)"
    }

    func name(_ id: Int) -> String {
        state.declarations[id]?.displayName ?? "#\(id)"
    }

    /// Whether `--ignore` leaves the atom out.
    func isIgnored(_ id: Int) -> Bool {
        guard let atom = state.declarations[id] else { return false }
        return ignore.contains { glob in [atom.displayName, atom.label, atom.type].contains(where: glob.matches) }
    }

    /// The identities of the live atoms that are not ignored.
    var liveIdentities: Set<String> {
        Set(state.liveIDs.filter { !isIgnored($0) }.map(identity))
    }

    /// The live atom with this identity (the smallest number live), unless it is ignored.
    func liveAtom(_ identity: String) -> Int? {
        guard let id = byIdentity[identity]?.first(where: state.liveIDs.contains), !isIgnored(id) else { return nil }
        return id
    }

    /// The atoms a transaction wrote, created or released, by identity (ignored ones left out).
    func touched(_ record: TransactionRecord) -> [String: Int] {
        let ids = (record.values ?? []).map(\.id) + (record.created ?? []) + (record.released ?? [])
        return Dictionary(ids.filter { !isIgnored($0) }.map { (identity($0), $0) }, uniquingKeysWith: min)
    }

    /// Dependency edges as `identity -> identity`, with display names, ignored atoms left out.
    func edges(_ edges: [EdgeEntry]) -> [String: String] {
        Dictionary(edges.filter { !isIgnored($0.from) && !isIgnored($0.to) }.map {
            ("\(identity($0.from)) -> \(identity($0.to))", "\(name($0.from)) -> \(name($0.to))")
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Subscriptions as `identity @ location` (location left out when ignored), with display
    /// names.
    func subscriptions(_ subscriptions: [SubscriptionEntry], locations: Bool) -> [String: String] {
        Dictionary(subscriptions.filter { !isIgnored($0.atom) }.map {
            let at = locations ? " @ \($0.at)" : ""
            return ("\(identity($0.atom))\(at)", "\(name($0.atom))\(at)")
        }, uniquingKeysWith: { first, _ in first })
    }
}
