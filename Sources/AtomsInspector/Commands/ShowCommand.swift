import AtomsJournalReader

/// `atoms-inspect show`: every live atom's value at a step.
package enum ShowCommand {
    /// The text or JSON for `show`.
    ///
    /// - Parameters:
    ///   - step: Where (default: last).
    ///   - atom: Only atoms matching this pattern.
    package static func run(_ journal: InspectedJournal, at step: StepSpec = .fromLast(0), atom: String? = nil, json: Bool = false, style: Style = .plain) throws(InspectorError) -> String {
        let step = try journal.step(step)
        guard let atom else {
            let state = try journal.state(at: step)
            return try render(state, atoms: state.liveAtoms, journal: journal, json: json, style: style)
        }
        // Only the values printed are decoded.
        let atoms = try AtomSelection.live(atom, in: journal.state(at: step, decodingValuesOf: []), journal: journal)
        let state = try journal.state(at: step, decodingValuesOf: Set(atoms.map(\.id)))
        return try render(state, atoms: atoms, journal: journal, json: json, style: style)
    }

    static func render(_ state: JournalState, atoms: [AtomDeclaration], journal: InspectedJournal, json: Bool, style: Style) throws(InspectorError) -> String {
        // The transaction that led to this step: its cause and write site.
        let transaction = state.step > journal.reader.firstStep ? try journal.transaction(state.step, decodingValuesOf: []) : nil
        if json {
            struct Output: Encodable {
                let step: Int
                let cause: String?
                let at: String?
                let atoms: [ValueJSON]
            }
            return JSONOutput.encode(Output(
                step: state.step, cause: transaction?.cause, at: transaction?.at,
                atoms: atoms.map { ValueJSON(atom: $0, name: $0.displayName, entry: state.values[$0.id]!) }
            ))
        }
        let count = state.liveAtoms.count
        let cause = transaction.map { " · \($0.cause)\($0.at.map { " @ " + $0 } ?? "")" } ?? ""
        var lines = [style.dim("step \(state.step) of \(journal.reader.lastStep), \(count) live atom\(count == 1 ? "" : "s")\(cause)")]
        for atom in atoms {
            let entry = state.values[atom.id]!
            let marks = entry.displayMarks
            let suffix = marks.isEmpty ? "" : "  " + style.yellow("(\(marks.joined(separator: ", ")))")
            lines.append("\(style.bold(atom.displayName)) = \(entry.displayText)\(suffix)")
        }
        return lines.joined(separator: "\n")
    }
}
