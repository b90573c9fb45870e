import AtomsJournalReader

/// `atoms-inspect restore`: writes the state at a step as a state file.
package enum RestoreCommand {
    /// Writes the state file and returns the report (which atoms were written, which not and why).
    package static func run(_ journal: InspectedJournal, at step: StepSpec, output: String, json: Bool = false, style: Style = .plain) throws(InspectorError) -> String {
        let state = try journal.state(at: journal.step(step))
        let file = StateFile(state: state, journal: journal.path)
        do {
            try file.write(to: output)
        } catch {
            throw InspectorError(error)
        }
        if json {
            struct Report: Encodable {
                let output: String
                let step: Int
                let restored: [String]
                let skipped: [StateFile.Skipped]
            }
            return JSONOutput.encode(Report(output: output, step: state.step, restored: file.atoms.map { entry in entry.key.map { "\(entry.label)[\($0)]" } ?? entry.label }, skipped: file.skipped))
        }
        var lines = ["wrote \(output): \(file.atoms.count) atoms at step \(state.step)"]
        if !file.skipped.isEmpty {
            lines.append(style.yellow("not included:"))
            lines += file.skipped.map { "  \($0.atom): \($0.reason)" }
        }
        return lines.joined(separator: "\n")
    }
}
