@testable import AtomsJournal
@testable import AtomsJournalReader
import Testing
@testable import AtomsInspector

/// What `show --json` says of a step, in the shape the report's tests compare with the page.
enum ShowPrinted {
    /// The live atoms at one step, in `show`'s order: `[name, text, marks]` each.
    typealias Atoms = [[String]]

    /// The live atoms `show --at STEP --json` prints, each as `show` prints its value (its
    /// JSON, the dump of a phase, or `<redacted>`) and its marks.
    static func atoms(_ journal: InspectedJournal, at step: Int) throws -> Atoms {
        let output = try ShowCommand.run(journal, at: .number(step), json: true)
        guard case .object(let members) = try JSONValue.parse(Array(output.utf8)), case .array(let atoms)? = members["atoms"] else {
            Issue.record("show --json printed \(output)")
            return []
        }
        return atoms.map { atom in
            guard case .object(let fields) = atom, case .string(let name)? = fields["atom"] else { return [] }
            let dump: String? = if case .string(let text)? = fields["dump"] { text } else { nil }
            let phase: String? = if case .string(let text)? = fields["phase"] { text } else { nil }
            let redacted = fields["redacted"] == .bool(true)
            let text = if redacted { "<redacted>" } else if phase != nil, let dump { dump } else { fields["value"]?.prettyText ?? dump ?? "<unknown>" }
            let marks = if redacted { "redacted" } else if fields["restorable"] == .bool(false) { phase.map { "phase: \($0), not restorable" } ?? "not restorable" } else { "" }
            return [name, text, marks]
        }
    }
}
