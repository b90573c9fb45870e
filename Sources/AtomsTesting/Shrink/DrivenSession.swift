import Atoms
import AtomsInspector
import AtomsJournal

/// The recorded transactions a replay drives, read once from the journal with each write's
/// whole value decoded as today's type: what a shrink replays parts of.
@MainActor
struct DrivenSession {
    /// One recorded write of a driven atom.
    struct Write {
        let member: ReplayedMember
        /// As messages name it.
        let atom: String
        /// The recorded value (whole); `nil` for a reset.
        var entry: ValueEntry?
        /// The value decoded once, ready to apply.
        var decoded: DecodedWrite
        /// The cause it is applied with: `asyncResult`, `refresh`, or the recorded one.
        let cause: AtomTransaction.Cause
    }

    /// One recorded transaction that writes driven atoms.
    struct Transaction {
        let step: Int
        let cause: String
        let writeSite: String?
        let site: SourceLocation?
        var writes: [Write]
    }

    let transactions: [Transaction]
    /// The first recorded value of each delivered atom: what it holds when created.
    let firstValues: [ReplayedAtomKey: ValueEntry]
    /// Every member the replay stands for (singles, and the family members the journal
    /// declares), in the order they are watched.
    let members: [ReplayedMember]
    /// Every atom the journal declares, by number.
    let declarations: [Int: AtomDeclaration]

    /// Reads the journal's driven transactions.
    ///
    /// - Throws: ``JournalReplayFailure`` for a damaged journal, a family key the test cannot
    ///   map, or a recorded value that no longer decodes as today's type (naming the step).
    init(journal: InspectedJournal, bindings: ReplayBindings) throws(JournalReplayFailure) {
        let reader = journal.reader
        var state = try ReplaySession.reading(journal) { () throws(JournalError) in try reader.state(at: reader.firstStep) }
        var transactions: [Transaction] = []
        var firstValues: [ReplayedAtomKey: ValueEntry] = [:]
        var members = bindings.singleMembers
        var declarations = state.declarations
        // Delivered atoms already created at the journal's start, or created once since.
        var createdOnce: Set<ReplayedAtomKey> = []
        func fail(_ step: Int, _ record: TransactionRecord?, _ atom: String?, _ detail: String) -> JournalReplayFailure {
            JournalReplayFailure(journal: journal.path, step: step, cause: record?.cause, writeSite: record?.at, atom: atom, detail: detail)
        }
        func bind(_ declaration: AtomDeclaration, step: Int, record: TransactionRecord?) throws(JournalReplayFailure) {
            declarations[declaration.id] = declaration
            do {
                if let member = try bindings.bind(declaration) { members.append(member) }
            } catch {
                throw fail(step, record, error.atom, error.detail)
            }
        }
        func noteFirstValues(_ numbers: some Sequence<Int>) {
            for number in numbers {
                guard let atom = bindings.bound[number], atom.delivers, let value = state.values[number] else { continue }
                let key = ReplayedAtomKey(atom.member.identity)
                if firstValues[key] == nil { firstValues[key] = value }
            }
        }
        func write(_ number: Int, cause: AtomTransaction.Cause, step: Int, record: TransactionRecord?) throws(JournalReplayFailure) -> Write? {
            guard let atom = bindings.bound[number], let value = state.values[number], let decode = atom.member.decode else { return nil }
            if atom.sets, let what = value.unwritableReason {
                throw fail(step, record, atom.name, "its recorded value \(what), which a shrink cannot write — watch it instead of driving it")
            }
            do {
                return Write(member: atom.member, atom: atom.name, entry: value, decoded: try decode(value), cause: cause)
            } catch {
                throw fail(step, record, atom.name, "its recorded value \(value.displayText.prefix(80)) no longer decodes as today's type: \(error) — update the journal (record the session again) or the type")
            }
        }
        for declaration in state.declarations.values.sorted(by: { $0.id < $1.id }) {
            try bind(declaration, step: reader.firstStep, record: nil)
        }
        noteFirstValues(state.values.keys.sorted())
        createdOnce = Set(state.liveIDs.compactMap { bindings.bound[$0].map { ReplayedAtomKey($0.member.identity) } })
        // A journal that starts mid-session: the driven states take its keyframe's values first.
        var start: [Write] = []
        for number in state.values.keys.sorted() where bindings.bound[number]?.sets == true {
            if let write = try write(number, cause: .set, step: reader.firstStep, record: nil) { start.append(write) }
        }
        if !start.isEmpty {
            transactions.append(Transaction(step: reader.firstStep, cause: "keyframe", writeSite: nil, site: nil, writes: start))
        }
        if reader.lastStep > reader.firstStep {
            let walk = TransactionWalk(everyTransactionOf: reader, after: state, decodingValuesOf: nil)
            while walk.nextStep <= reader.lastStep {
                guard let record = try ReplaySession.reading(journal, { () throws(JournalError) in try walk.advance(&state) }) else { continue }
                for declaration in record.declare ?? [] {
                    try bind(declaration, step: record.seq, record: record)
                }
                noteFirstValues((record.values ?? []).map(\.id))
                var writes: [Write] = []
                let cause = AtomTransaction.Cause(rawValue: record.cause) ?? .set
                let created = Set(record.created ?? [])
                for operation in bindings.operations(in: record) {
                    switch operation {
                    case .reset(let number):
                        guard let atom = bindings.bound[number] else { continue }
                        let member = atom.member
                        writes.append(Write(member: member, atom: atom.name, entry: nil, decoded: DecodedWrite(apply: { context, location, _ in member.reset(context, location) }, hold: nil), cause: .reset))
                    case .write(let number):
                        // A state the transaction created takes today's first value: a trial
                        // watches every atom from its start, and a creation is no write of
                        // the session's.
                        guard !created.contains(number) || record.origin == number else { continue }
                        if let write = try write(number, cause: cause, step: record.seq, record: record) { writes.append(write) }
                    case .deliver(let number, let created):
                        // The value an atom is first created with is held from a trial's start;
                        // one created again (after a release) takes its value as a result, as
                        // a trial's atom stays cached.
                        if created, let atom = bindings.bound[number], createdOnce.insert(ReplayedAtomKey(atom.member.identity)).inserted { continue }
                        if let write = try write(number, cause: record.cause == "refresh" ? .refresh : .asyncResult, step: record.seq, record: record) { writes.append(write) }
                    }
                }
                if !writes.isEmpty {
                    transactions.append(Transaction(step: record.seq, cause: record.cause, writeSite: record.at, site: record.at.flatMap(ReplaySession.location), writes: writes))
                }
            }
        }
        self.transactions = transactions
        self.firstValues = firstValues
        self.members = members
        self.declarations = declarations
    }
}
