import AtomsJournalReader

/// Writes one journal's rows into an export's tables: its transactions are read once, in
/// step order, each applied to a state that holds only the live atoms' values, so memory
/// follows the state's size (and the number of distinct atoms), not the journal's length.
///
/// One atom is one row of `atoms` and one `atom_id` everywhere, whatever numbers the
/// journal gave it (released, then declared again under a new one): its first number.
struct JournalExporter {
    private let journal: InspectedJournal
    private let tables: ExportTables
    /// The journal's id, encoded once.
    private let id: [UInt8]
    /// Each atom's name columns, encoded once (atoms are named on every change).
    private var names: [Int: EncodedAtom] = [:]
    /// One atom is one type, key and scope (``AtomDeclaration/identityKey``), whatever its
    /// numbers: each atom's first number, which every row gives as its `atom_id`.
    private var firstNumbers: [String: Int] = [:]
    /// The live atoms' numbers that are not their atom's first, to their first.
    private var laterNumbers: [Int: Int] = [:]

    private struct EncodedAtom {
        let name: [UInt8]
        let label: [UInt8]
        let type: [UInt8]
        let key: [UInt8]
        let scope: Int?
    }

    /// The journal's rows between two steps (the whole journal by default), as `log` lists
    /// them: the transactions after `from` (or from `from` itself when it names one) up to `to`.
    static func export(_ journal: InspectedJournal, id: String, from: StepSpec?, to: StepSpec?, into tables: ExportTables) throws(InspectorError) {
        var exporter = JournalExporter(journal: journal, tables: tables, id: tables.encoded(id))
        try exporter.run(from: from, to: to)
    }

    private init(journal: InspectedJournal, tables: ExportTables, id: [UInt8]) {
        self.journal = journal
        self.tables = tables
        self.id = id
    }

    private mutating func run(from: StepSpec?, to: StepSpec?) throws(InspectorError) {
        let reader = journal.reader
        let steps = try journal.steps(from: from, to: to)
        let (first, last) = (steps.lowerBound, steps.upperBound)
        let firstTransaction = max(first, reader.firstStep + 1)
        let start = min(firstTransaction - 1, last)
        var state = try journal.state(at: start)
        for declaration in state.declarations.values.sorted(by: { $0.id < $1.id }) {
            try writeAtom(declaration, step: start)
        }
        guard firstTransaction <= last else { return }
        try journal.walk(&state, through: last, decodingValuesOf: nil) { record, state throws(InspectorError) in
            for declaration in record.declare ?? [] {
                names[declaration.id] = nil
                try writeAtom(declaration, step: record.seq)
            }
            try writeTransaction(record, state: state)
            for entry in record.values ?? [] {
                try writeChange(entry, resolved: state.values[entry.id] ?? entry, of: record, state: state)
            }
            for id in record.released ?? [] {
                laterNumbers[id] = nil
            }
        }
    }

    /// The atom's first number: `id`, unless the atom had another before.
    private func atomID(_ id: Int) -> Int {
        laterNumbers[id] ?? id
    }

    private mutating func encoded(_ id: Int, in state: JournalState? = nil, declaration: AtomDeclaration? = nil) -> EncodedAtom {
        if let known = names[id] { return known }
        let atom = declaration ?? state?.declarations[id]
        let encoded = EncodedAtom(
            name: tables.encoded(atom?.displayName ?? "#\(id)"),
            label: tables.encoded(atom?.label ?? "#\(id)"),
            type: tables.encoded(atom?.type ?? ""),
            key: tables.encoded(atom?.key),
            scope: atom?.scope
        )
        names[id] = encoded
        return encoded
    }

    /// The atom's row, unless it has one under an earlier number.
    private mutating func writeAtom(_ declaration: AtomDeclaration, step: Int) throws(InspectorError) {
        if let first = firstNumbers[declaration.identityKey] {
            if first != declaration.id { laterNumbers[declaration.id] = first }
            return
        }
        firstNumbers[declaration.identityKey] = declaration.id
        let atom = encoded(declaration.id, declaration: declaration)
        try tables.append(to: .atoms) { row, out in
            row.encoded(id, &out)
            row.integer(declaration.id, &out)
            row.encoded(atom.name, &out)
            row.encoded(atom.label, &out)
            row.encoded(atom.type, &out)
            row.encoded(atom.key, &out)
            row.integer(atom.scope, &out)
            row.integer(step, &out)
            row.end(&out)
        }
    }

    private mutating func writeTransaction(_ record: TransactionRecord, state: JournalState) throws(InspectorError) {
        let origin = record.origin.map { encoded($0, in: state).name }
        let originID = record.origin.map(atomID)
        try tables.append(to: .transactions) { row, out in
            row.encoded(id, &out)
            row.integer(record.seq, &out)
            row.double(record.t, &out)
            row.text(record.cause, &out)
            if let origin { row.encoded(origin, &out) } else { row.null(&out) }
            row.integer(originID, &out)
            row.text(record.at, &out)
            row.integer(record.values?.count ?? 0, &out)
            row.integer(record.values?.count { $0.unchanged == true } ?? 0, &out)
            row.integer(record.created?.count ?? 0, &out)
            row.integer(record.released?.count ?? 0, &out)
            row.integer(record.declare?.count ?? 0, &out)
            // Journals record no timing yet: the column is there for those that will.
            row.null(&out)
            row.end(&out)
        }
    }

    private mutating func writeChange(_ entry: ValueEntry, resolved: ValueEntry, of record: TransactionRecord, state: JournalState) throws(InspectorError) {
        let atom = encoded(entry.id, in: state)
        let origin = record.origin.map { encoded($0, in: state).name }
        let redacted = entry.redacted == true || resolved.redacted == true
        let entryID = atomID(entry.id)
        let originID = record.origin.map(atomID)
        try tables.append(to: .changes) { row, out in
            row.encoded(id, &out)
            row.integer(record.seq, &out)
            row.double(record.t, &out)
            row.integer(entryID, &out)
            row.encoded(atom.name, &out)
            row.encoded(atom.label, &out)
            row.encoded(atom.type, &out)
            row.encoded(atom.key, &out)
            row.integer(atom.scope, &out)
            row.json(redacted ? nil : resolved.v, &out)
            row.text(redacted ? nil : resolved.dump, &out)
            row.text(entry.phase ?? resolved.phase, &out)
            row.boolean(redacted, &out)
            row.boolean(entry.unchanged == true, &out)
            row.boolean(record.created?.contains(entry.id) ?? false, &out)
            row.text(record.cause, &out)
            if let origin { row.encoded(origin, &out) } else { row.null(&out) }
            row.integer(originID, &out)
            row.text(record.at, &out)
            row.end(&out)
        }
    }
}
