import AtomsJournalReader

/// `atoms-inspect blame`: why an atom has its value — the transaction that last changed it,
/// its write site, and the dependency path that carried the change from the origin atom.
package enum BlameCommand {
    /// One change of an atom.
    package struct Change: Encodable, Equatable, Sendable {
        /// The step (the transaction that made the change).
        package let step: Int
        /// The transaction's cause.
        package let cause: String
        /// Its write site (`fileID:line`), or the location an older journal records.
        package let at: String?
        /// The atom whose operation started the transaction.
        package let origin: String?
        /// The atoms from the origin to this one along dependency edges; empty when no edge
        /// path joins them at that step.
        package let path: [String]
        /// Whether the atom was released (it has no value after this step).
        package let released: Bool
        /// The value after the change (JSON, or dump text).
        package let value: JSONValue?
    }

    /// The blame of one atom at one step.
    package struct Blame: Encodable, Equatable, Sendable {
        /// The atom (`Label[key]` for a family member).
        package let atom: String
        /// The step asked about.
        package let step: Int
        /// The last change at or before `step`; `nil` when the atom has not changed since the
        /// journal's first step.
        package let change: Change?
        /// With `--history`: every change up to `step`, newest first.
        package let history: [Change]?
    }

    /// Blames every atom matching `pattern` (display name, label or type; `*` globs) at `step`.
    ///
    /// An atom released and seen again after a keyframe has several numbers; it is blamed
    /// once, across all of them.
    ///
    /// - Complexity: Without `history`, reads transaction envelopes back from `step` to the
    ///   atom's last change, in blocks that double (and, for an atom released before the
    ///   keyframe nearest `step`, every envelope up to `step` to find its declaration); with
    ///   it, two passes from the start, the second decoding only the atom's values.
    /// - Throws: ``InspectorError`` (usage) when no atom declared by `step` matches.
    package static func blame(_ journal: InspectedJournal, atom pattern: String, at step: StepSpec = .fromLast(0), history: Bool = false) throws(InspectorError) -> [Blame] {
        guard history else { return try blames(journal, atom: pattern, at: step, history: false) }
        // The history reads every line up to the step.
        return try journal.readingEveryLine { () throws(InspectorError) in
            try blames(journal, atom: pattern, at: step, history: true)
        }
    }

    private static func blames(_ journal: InspectedJournal, atom pattern: String, at step: StepSpec, history: Bool) throws(InspectorError) -> [Blame] {
        let step = try journal.step(step)
        // The history needs every number the atom had, declared further back than a keyframe.
        let (matched, declarations) = try AtomSelection.declared(pattern, in: journal, through: step, everyNumber: history)
        let names = Naming(declarations: declarations)
        // Each atom's numbers, oldest first; named by its latest.
        let atoms = Dictionary(grouping: matched) { declarations[$0]?.identityKey ?? "#\($0)" }.values
            .map { $0.sorted() }
            .sorted { (names.name($0.last!), $0.last!) < (names.name($1.last!), $1.last!) }
        if history {
            let changes = try self.history(journal, of: matched, through: step)
            return atoms.map { numbers in
                let merged = numbers.flatMap { changes[$0] ?? [] }.sorted { $0.step < $1.step }
                return Blame(atom: names.name(numbers.last!), step: step, change: merged.last, history: merged.reversed())
            }
        }
        var blames: [Blame] = []
        for numbers in atoms {
            let change = try lastChange(journal, of: numbers, atOrBefore: step)
            blames.append(Blame(atom: names.name(numbers.last!), step: step, change: change, history: nil))
        }
        return blames
    }

    /// Whether `blame` counts a transaction as one that changed an atom: it changed its value
    /// (``TransactionRecord/changed(_:)``: an equal write is not a change), created or released it.
    static func changes(_ record: TransactionRecord, _ atom: Int) -> Bool {
        record.changed(atom) || record.createdOrReleased(atom)
    }

    /// The last change, at or before `step`, of an atom with any of these numbers.
    ///
    /// Read back from `step` in blocks of steps, each read forward by `log`'s listing (the
    /// engine every in-order reading takes, from the transactions' bytes) and twice as long
    /// as the one after it: a recent change is found in the first few dozen steps, an old one
    /// at about twice the cost of reading forward to it, not one seek a step.
    private static func lastChange(_ journal: InspectedJournal, of numbers: [Int], atOrBefore step: Int) throws(InspectorError) -> Change? {
        let reader = journal.reader
        let watched = Set(numbers)
        var high = step
        var length = 64
        while high > reader.firstStep {
            let low = max(reader.firstStep + 1, high - length + 1)
            var found: Int?
            do throws(JournalError) {
                try reader.forEachTransaction(from: low, through: high) { listed in
                    switch listed {
                    case .envelope(let envelope):
                        // A line in the common shape creates and releases nothing.
                        if envelope.atoms.indices.contains(where: { watched.contains(envelope.atoms[$0]) && !envelope.isEqualWrite(at: $0) }) {
                            found = envelope.seq
                        }
                    case .record(let record):
                        if numbers.contains(where: { changes(record, $0) }) { found = record.seq }
                    }
                    return true
                }
            } catch {
                // A damaged line in the block, perhaps before the change: the block is read
                // back one transaction at a time, so that only the lines up to the change are
                // read, and a damaged one among them is named.
                found = try lastChangingStep(journal, of: numbers, in: low...high)
            }
            if let found {
                let record = try journal.transaction(found, decodingValuesOf: [])
                guard let atom = numbers.last(where: { changes(record, $0) }) else { return nil }
                return change(atom, record, in: try journal.state(at: found, decodingValuesOf: [atom]))
            }
            high = low - 1
            length *= 2
        }
        return nil
    }

    /// The last step of `steps` that changes an atom with any of these numbers, reading
    /// their transactions back from the last.
    private static func lastChangingStep(_ journal: InspectedJournal, of numbers: [Int], in steps: ClosedRange<Int>) throws(InspectorError) -> Int? {
        for seq in steps.reversed() {
            let record = try journal.transaction(seq, decodingValuesOf: [])
            if numbers.contains(where: { changes(record, $0) }) { return seq }
        }
        return nil
    }

    /// Every change of the atoms through `step`: the one search (``ExpressionScan``) finds the
    /// steps that write, create or release them, skipping the others on their bytes.
    private static func history(_ journal: InspectedJournal, of atoms: Set<Int>, through step: Int) throws(InspectorError) -> [Int: [Change]] {
        var changes: [Int: [Change]] = [:]
        let scan = ExpressionScan(journal: journal, changesOf: atoms)
        try scan.steps(from: journal.reader.firstStep + 1, through: step) { state, record, _ throws(InspectorError) in
            guard let record else { return }
            for atom in atoms.sorted() where Self.changes(record, atom) {
                changes[atom, default: []].append(change(atom, record, in: state))
            }
        }
        return changes
    }

    /// The change `record` made to `atom`, described with the state right after it.
    private static func change(_ atom: Int, _ record: TransactionRecord, in state: JournalState) -> Change {
        let names = Naming(declarations: state.declarations)
        let changed = Set((record.values ?? []).map(\.id) + (record.created ?? []))
        let path = ChangePath.path(from: record.origin, to: atom, edges: state.edges, changed: changed) ?? []
        return Change(
            step: record.seq, cause: record.cause, at: record.at, origin: record.origin.map(names.name),
            path: path.map(names.name), released: record.released?.contains(atom) == true,
            value: state.values[atom].map(DiffCommand.display)
        )
    }

    /// The text or JSON for `blame`.
    package static func run(_ journal: InspectedJournal, atom: String, at step: StepSpec = .fromLast(0), history: Bool = false, json: Bool = false, style: Style = .plain) throws(InspectorError) -> String {
        let blames = try blame(journal, atom: atom, at: step, history: history)
        if json {
            return JSONOutput.encode(blames)
        }
        return blames.map { render($0, journal: journal, style: style) }.joined(separator: "\n\n")
    }

    static func render(_ blame: Blame, journal: InspectedJournal, style: Style) -> String {
        let title = style.bold(blame.atom) + style.dim(" at step \(blame.step)")
        if let history = blame.history {
            var lines = ["\(title): \(history.count) change\(history.count == 1 ? "" : "s"), newest first"]
            for change in history {
                lines.append("  \(style.bold("step \(change.step)"))  \(describe(change, style: style))")
                lines.append("    \(change.released ? style.red("released") : "= " + summary(change.value))")
            }
            return lines.joined(separator: "\n")
        }
        guard let change = blame.change else {
            return "\(title): unchanged since the journal's first step (\(journal.reader.firstStep))"
        }
        var lines = ["\(title): \(change.released ? "released" : "changed") at \(style.bold("step \(change.step)")) by \(describe(change, style: style))"]
        if !change.released {
            lines.append("  value  \(summary(change.value))")
        }
        return lines.joined(separator: "\n")
    }

    /// `set @ File.swift:12 via Origin → Derived`.
    private static func describe(_ change: Change, style: Style) -> String {
        var text = style.cyan(change.cause) + (change.at.map { " @ " + $0 } ?? "")
        if change.path.count > 1 {
            text += "  via " + change.path.joined(separator: " → ")
        } else if change.path.isEmpty, let origin = change.origin {
            text += "  from \(origin) (no dependency path at that step)"
        }
        return text
    }

    /// A value on one line, shortened past 160 characters.
    package static func summary(_ value: JSONValue?) -> String {
        guard let value else { return "(no value)" }
        let text = value.jsonText
        return text.count > 160 ? String(text.prefix(159)) + "…" : text
    }
}
