import Atoms
import AtomsInspector
import AtomsJournal

/// The checks a test runs on its context's journal, over the journal as every
/// `atoms-inspect` command reads it.
enum JournalChecks {
    /// The outcome of each rule at the journal's last step, as `atoms-inspect check` finds it.
    static func graphResults(_ journal: InspectedJournal, rules: String, named file: String) throws(InspectorError) -> (step: Int, results: [RuleChecker.Result]) {
        let parsed = try RulesParser.parse(rules, file: file)
        let state = try journal.state(at: journal.reader.lastStep, decodingValuesOf: [])
        let checker = RuleChecker(state: state)
        return (state.step, parsed.map(checker.check))
    }

    /// The journal's numbers for `atom` (one per time it was declared), matched by type and key
    /// in any scope.
    static func numbers(of atom: some Atom, in journal: InspectedJournal) throws(InspectorError) -> Set<Int> {
        let identity = AtomIdentity(atom, scope: nil, names: AtomTypeNames(type(of: atom)))
        let declarations = try journal.declarations(through: journal.reader.lastStep)
        return Set(declarations.values.filter { $0.type == identity.typeName && $0.key == identity.keyDescription }.map(\.id))
    }

    /// The steps, in order, whose transaction gave one of `atoms` a value different from its
    /// previous one; a transaction creating the atom gives it its first value, not a change.
    static func changeSteps(of atoms: Set<Int>, in journal: InspectedJournal) throws(InspectorError) -> [Int] {
        try steps(in: journal) { record in
            record.values?.contains { atoms.contains($0.id) && record.changed($0.id) && record.created?.contains($0.id) != true } == true
        }
    }

    /// The steps, in order, whose transaction wrote any of `atoms`: a new value or one equal
    /// to the previous, not the first value a transaction creating the atom gives it.
    static func writeSteps(of atoms: Set<Int>, in journal: InspectedJournal) throws(InspectorError) -> [Int] {
        try steps(in: journal) { record in
            record.values?.contains { atoms.contains($0.id) && record.wrote($0.id) && record.created?.contains($0.id) != true } == true
        }
    }

    /// The steps whose transaction satisfies `condition`, reading only envelopes and value ids.
    private static func steps(in journal: InspectedJournal, where condition: (TransactionRecord) -> Bool) throws(InspectorError) -> [Int] {
        let first = journal.reader.firstStep
        let last = journal.reader.lastStep
        guard last > first else { return [] }
        var found: [Int] = []
        // The walk every command's reading of all steps takes (values left undecoded).
        var state = try journal.state(at: first, decodingValuesOf: [])
        try journal.walk(&state, through: last, decodingValuesOf: []) { record, _ in
            if condition(record) { found.append(record.seq) }
        }
        return found
    }
}
