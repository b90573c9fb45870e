import Atoms
import AtomsInspector
import AtomsJournal

/// One run of a ``JournalReplay`` in one context: walks the journal step by step, applying
/// the driven atoms' writes and comparing the checked atoms' values.
@MainActor
final class ReplaySession {
    private let journal: InspectedJournal
    private let atoms: [ReplayedAtom]
    private let context: AtomTestContext
    /// Where the replay was run from: its watches, and the writes of a keyframe's values.
    private let location: SourceLocation
    private let form = RecordedForm()
    private let comparison = RecordedComparison()
    private var state: JournalState
    private let bindings: ReplayBindings
    private var bound: [Int: ReplayBindings.Bound] { bindings.bound }
    /// Driven atoms whose recorded value changed since the replay last wrote it (or that it
    /// never wrote): their next write decodes the whole value, not a delta.
    private var unsynced: Set<Int> = []
    /// The driven atoms written for the current transaction.
    private var written: Set<Int> = []

    /// The numbers of the atoms driven (their values resolved at every step: writes need them)
    /// and checked (their recorded entries read, compared with today's change), as their
    /// declarations are met; the checked ones also in order, as they are compared.
    private var drivenNumbers: Set<Int> = []
    private var checkedNumbers: Set<Int> = []
    private var checkedInOrder: [Int] = []
    /// The checked atoms whose recorded values the walk resolves too: those whose recorded
    /// change once differed from today's in form, so that it needed the whole value.
    private var resolvedChecked: Set<Int> = []
    private var walk: TransactionWalk?
    /// The journal opened again, to read a checked atom's whole recorded value at a step
    /// (seeking from a keyframe) without moving the walk's reader.
    private var seeker: InspectedJournal?
    /// The last write site read, with its text (``writeSite(_:)``).
    private var lastSite: (text: String, site: SourceLocation)?

    /// Whether every atom named matched a declaration the replay met: one that did not is
    /// either never declared, or declared after the step where the replay stopped.
    var matchedEvery: Bool { bindings.matchedEvery }

    init(journal: InspectedJournal, atoms: [ReplayedAtom], context: AtomTestContext, location: SourceLocation) throws(JournalReplayFailure) {
        self.journal = journal
        self.atoms = atoms
        self.context = context
        self.location = location
        bindings = ReplayBindings(atoms)
        state = try Self.reading(journal) { () throws(JournalError) in try journal.reader.state(at: journal.reader.firstStep) }
    }

    /// Replays every transaction; throws at the first disagreement.
    func run() throws(JournalReplayFailure) {
        let reader = journal.reader
        // Delivered atoms are overridden before anything creates them, holding their first
        // recorded values.
        let delivered = bindings.singleMembers.filter(\.isDelivered)
        if !delivered.isEmpty {
            let first = try firstValues(of: Set(delivered.map { ReplayedAtomKey($0.identity) }))
            for member in delivered {
                do {
                    try member.prepare?(context, first[ReplayedAtomKey(member.identity)])
                } catch {
                    throw failure(step: reader.firstStep, record: nil, atom: member.identity.description, "\(error) — drive it only where the journal records its values, or record the session again")
                }
            }
        }
        for member in bindings.singleMembers {
            member.watch(context, location)
        }
        for declaration in state.declarations.values.sorted(by: { $0.id < $1.id }) {
            try bind(declaration, step: reader.firstStep, record: nil)
        }
        // A journal that starts mid-session: the driven atoms start from its keyframe.
        for (number, atom) in bound.sorted(by: { $0.key < $1.key }) where atom.drives {
            unsynced.insert(number)
            if let value = state.values[number] {
                try write(value, of: atom, step: reader.firstStep, record: nil, at: location)
            }
        }
        unsynced.subtract(written)
        written.removeAll()
        try compare(step: reader.firstStep, record: nil)
        guard reader.lastStep > reader.firstStep else { return }
        // Every transaction in order, on the engine every command's walk takes: the driven
        // atoms' values resolved, the checked atoms' recorded changes read.
        // Atoms declared later are bound as their declarations are met (`bind`): the walk
        // decodes the value each atom is declared with, whatever it keeps.
        let walk = TransactionWalk(everyTransactionOf: reader, after: state, decodingValuesOf: drivenNumbers.union(checkedNumbers), resolvingValuesOf: drivenNumbers, firstValues: true)
        for number in checkedNumbers.subtracting(drivenNumbers) { walk.keepDeltaBytes(of: number) }
        self.walk = walk
        while walk.nextStep <= reader.lastStep {
            let seq = walk.nextStep
            // Never nil: a walk of every transaction skips none.
            guard let record = try Self.reading(journal, { () throws(JournalError) in try walk.advance(&state) }) else { continue }
            for declaration in record.declare ?? [] {
                try bind(declaration, step: seq, record: record)
            }
            try drive(record)
            for value in record.values ?? [] where drivenNumbers.contains(value.id) {
                // A driven atom the replay did not write is written whole next time.
                if written.contains(value.id) {
                    unsynced.remove(value.id)
                } else if value.unchanged != true {
                    unsynced.insert(value.id)
                }
            }
            written.removeAll(keepingCapacity: true)
            // Every live checked atom: one unchanged today costs a bitwise comparison.
            try compare(step: seq, record: record)
        }
    }

    /// Notes a recorded atom the replay drives or checks, and watches a family member; from
    /// then on the walk keeps its values.
    private func bind(_ declaration: AtomDeclaration, step: Int, record: TransactionRecord?) throws(JournalReplayFailure) {
        do {
            try bindings.bind(declaration)?.watch(context, location)
        } catch {
            throw failure(step: step, record: record, atom: error.atom, error.detail)
        }
        let number = declaration.id
        guard let atom = bound[number], atom.drives || atom.checks else { return }
        if atom.drives, drivenNumbers.insert(number).inserted {
            walk?.resolveValues(of: [number])
        }
        if atom.checks, checkedNumbers.insert(number).inserted {
            let place = checkedInOrder.firstIndex { $0 > number } ?? checkedInOrder.endIndex
            checkedInOrder.insert(number, at: place)
            if !atom.drives { walk?.keepDeltaBytes(of: number) }
        }
        walk?.decodeValues(alsoOf: number)
    }

    /// Applies a recorded transaction's writes to the driven atoms.
    private func drive(_ record: TransactionRecord) throws(JournalReplayFailure) {
        let site = writeSite(record.at)
        for operation in bindings.operations(in: record) {
            switch operation {
            case .reset(let number):
                bound[number]?.member.reset(context, site)
            case .write(let number):
                if let atom = bound[number], let value = state.values[number] {
                    try write(value, of: atom, step: record.seq, record: record, at: site)
                }
            case .deliver(let number, let created):
                guard let atom = bound[number], let value = state.values[number], let decode = atom.member.decode else { continue }
                let decoded: DecodedWrite
                do {
                    decoded = try decode(value)
                } catch {
                    throw failure(step: record.seq, record: record, atom: atom.name, "its recorded value \(value.displayText.prefix(80)) does not make today's value: \(Self.describe(error)) — update the journal (record the session again) or the type")
                }
                written.insert(number)
                // Created again while today's atom stays cached (the replay watches it from the
                // start): delivered, as its value changed.
                if created, atom.member.current(context) == nil {
                    decoded.hold?()
                } else {
                    decoded.apply(context, site, record.cause == "refresh" ? .refresh : .asyncResult)
                }
            }
        }
    }

    /// The first value recorded of each atom named, by identity: what a delivered atom holds
    /// when the replay's store creates it.
    private func firstValues(of keys: Set<ReplayedAtomKey>) throws(JournalReplayFailure) -> [ReplayedAtomKey: ValueEntry] {
        var found: [ReplayedAtomKey: ValueEntry] = [:]
        func take(_ values: some Sequence<ValueEntry>, _ declarations: [Int: AtomDeclaration]) {
            for value in values {
                guard let declaration = declarations[value.id], declaration.scope == nil else { continue }
                let key = ReplayedAtomKey(type: declaration.type, key: declaration.key)
                if keys.contains(key), found[key] == nil { found[key] = value }
            }
        }
        var walked = state
        take(walked.values.values.sorted { $0.id < $1.id }, walked.declarations)
        let reader = journal.reader
        guard found.count < keys.count, reader.lastStep > reader.firstStep else { return found }
        let walk = TransactionWalk(everyTransactionOf: reader, after: walked, decodingValuesOf: nil)
        while found.count < keys.count, walk.nextStep <= reader.lastStep {
            guard let record = try Self.reading(journal, { () throws(JournalError) in try walk.advance(&walked) }) else { continue }
            take((record.values ?? []).compactMap { walked.values[$0.id] }, walked.declarations)
        }
        return found
    }

    private func write(_ value: ValueEntry, of atom: ReplayBindings.Bound, step: Int, record: TransactionRecord?, at site: SourceLocation) throws(JournalReplayFailure) {
        guard let write = atom.member.write else { return }
        let number = value.id
        let entry = unsynced.contains(number) ? nil : record?.values?.first { $0.id == number }
        written.insert(number)
        guard let json = value.v, value.unwritableReason == nil else {
            let what = value.unwritableReason ?? ""
            throw failure(step: step, record: record, atom: atom.name, "its recorded value \(what), which the replay cannot write — check it instead of driving it")
        }
        do {
            try write(RecordedWrite(value: json, delta: entry?.delta, isUnchanged: entry?.unchanged == true), context, site)
        } catch {
            throw failure(step: step, record: record, atom: atom.name, "its recorded value \(BlameCommand.summary(json)) no longer decodes as today's type: \(Self.describe(error)) — update the journal (record the session again) or the type")
        }
    }

    /// Why a recorded value does not decode: where, and the type expected there.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let expected, let context), DecodingError.valueNotFound(let expected, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "the value" : "field \"\(path)\"") is not \(expected)"
        default:
            return LineScanner.describe(error, lineStart: 0)
        }
    }

    /// Compares today's value of each live checked atom with the recorded one.
    private func compare(step: Int, record: TransactionRecord?) throws(JournalReplayFailure) {
        for number in checkedInOrder where state.liveIDs.contains(number) {
            guard let atom = bound[number] else { continue }
            // Compared the recorder's way first: today's change against the recorded one.
            // Read in place: the entry is copied only where the value is compared whole.
            let values = record?.values ?? []
            let (index, parsed, unchanged) = values.withUnsafeBufferPointer { entries in
                let index = entries.firstIndex { $0.id == number }
                return (index, index.flatMap { entries[$0].delta }, index.map { entries[$0].unchanged == true })
            }
            // The walk keeps a checked atom's deltas as bytes (its entry's delta is then `null`).
            let delta: RecordedComparison.RecordedDelta? = if parsed != nil, let bytes = walk?.deltaBytes.delta(of: number) { .bytes(bytes) } else { parsed.map { .parsed($0) } }
            switch atom.member.change(context, delta, comparison) {
            case .unchanged where unchanged != false: continue
            case .delta(sameAsRecorded: true): continue
            default: break
            }
            let written = index.map { values[$0] }
            guard let recorded = try recordedValue(of: number, at: step, written: written, record: record), recorded.redacted != true else { continue }
            guard let value = atom.member.current(context) else {
                throw failure(step: step, record: record, atom: atom.name, "the journal holds its value but today's store has none — the replay watches every atom it checks; report this")
            }
            var today = form.entry(of: value, for: atom.member.identity)
            today.id = number
            // A journal recorded before failures' descriptions were written has none to compare.
            if recorded.error == nil { today.error = nil }
            var expected = recorded
            // A failure delivered by the replay is a RecordedFailure: its dump names that type,
            // so a failure is compared by what its error says.
            if recorded.phase == "failure", recorded.error != nil {
                today.dump = nil
                expected.dump = nil
            }
            guard Self.comparable(today) != Self.comparable(expected) else { continue }
            let replayed = ReplayedJournal.write(journal, through: step, today: [number: today], context: context)
            throw failure(
                step: step, record: record, atom: atom.name,
                "today's value differs from the recorded one" + (replayed.error.map { " (the replay's journal could not be written: \($0))" } ?? ""),
                diff: DiffCommand.lineDiff(recorded, today), replayedJournal: replayed.path
            )
        }
    }

    /// A checked atom's whole recorded value after `step`: the entry written there when it is
    /// whole, else the state's (the first step's state holds every value), else read by
    /// seeking, after which the walk resolves it at every step.
    private func recordedValue(of number: Int, at step: Int, written: ValueEntry?, record: TransactionRecord?) throws(JournalReplayFailure) -> ValueEntry? {
        if let written, written.delta == nil, written.unchanged != true, written.patch == nil {
            return written
        }
        if record == nil || resolvedChecked.contains(number) || !checkedNumbers.contains(number) {
            return state.values[number]
        }
        let seeker: InspectedJournal
        if let opened = self.seeker {
            seeker = opened
        } else {
            do {
                seeker = try InspectedJournal(path: journal.path)
            } catch {
                throw JournalReplayFailure(journal: journal.path, detail: error.description)
            }
            self.seeker = seeker
        }
        let value = try Self.reading(journal) { () throws(JournalError) in try seeker.reader.state(at: step, decodingValuesOf: [number]).values[number] }
        if let value { state.adopt(value) }
        resolvedChecked.insert(number)
        walk?.resolveValues(of: [number])
        return value
    }

    /// An entry as compared: what the recorder writes, without the journal's number.
    private static func comparable(_ entry: ValueEntry) -> ValueEntry {
        ValueEntry(id: 0, v: entry.v, dump: entry.dump, redacted: entry.redacted, phase: entry.phase, norestore: entry.norestore, error: entry.error)
    }

    private func failure(step: Int, record: TransactionRecord?, atom: String?, _ detail: String, diff: String? = nil, replayedJournal: String? = nil) -> JournalReplayFailure {
        JournalReplayFailure(journal: journal.path, step: step, cause: record?.cause, writeSite: record?.at, atom: atom, detail: detail, diff: diff, replayedJournal: replayedJournal)
    }

    /// A recorded write site as a location (the replay's own where it has none), the last
    /// one kept: a session writes from a few sites, most steps from the one before's.
    private func writeSite(_ at: String?) -> SourceLocation {
        guard let at else { return location }
        if let last = lastSite, last.text == at { return last.site }
        let site = Self.location(at) ?? location
        lastSite = (at, site)
        return site
    }

    /// `fileID:line` as a location.
    static func location(_ text: String) -> SourceLocation? {
        guard let colon = text.lastIndex(of: ":"), let line = UInt(text[text.index(after: colon)...]) else { return nil }
        return SourceLocation(fileID: String(text[..<colon]), line: line)
    }

    /// Runs a read of the journal, turning its error into a failure naming the file and line.
    static func reading<Result>(_ journal: InspectedJournal, _ read: () throws(JournalError) -> Result) throws(JournalReplayFailure) -> Result {
        do {
            return try read()
        } catch {
            throw JournalReplayFailure(journal: journal.path, detail: InspectorError(error).description)
        }
    }
}
