import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect diff`: what differs between two steps.
package enum DiffCommand {
    /// The differences between two states.
    package struct Difference: Encodable, Equatable, Sendable {
        /// An atom whose value differs.
        package struct Changed: Encodable, Equatable, Sendable {
            /// The atom.
            package let atom: String
            /// Its value at `from` (JSON, or dump text).
            package let from: JSONValue
            /// Its value at `to`.
            package let to: JSONValue
            /// A line diff of the two values (`-` from, `+` to, unchanged runs folded).
            package let diff: String
        }

        /// The earlier step.
        package let from: Int
        /// The later step.
        package let to: Int
        /// Atoms whose values differ, sorted.
        package let changed: [Changed]
        /// Atoms live at `to` but not at `from`.
        package let created: [String]
        /// Atoms live at `from` but not at `to`.
        package let released: [String]
        /// Dependency edges at `to` but not at `from`, as `A -> B`.
        package let edgesAdded: [String]
        /// Dependency edges at `from` but not at `to`.
        package let edgesRemoved: [String]

        /// Whether anything differs.
        package var isEmpty: Bool {
            changed.isEmpty && created.isEmpty && released.isEmpty && edgesAdded.isEmpty && edgesRemoved.isEmpty
        }
    }

    /// The differences between the states at two steps.
    ///
    /// - Complexity: Two state lookups (each a keyframe plus the transactions after it) and a
    ///   comparison proportional to the atoms compared: not to the journal's length. With
    ///   `atom`, only the matching atoms' values are decoded.
    package static func difference(_ journal: InspectedJournal, from: StepSpec, to: StepSpec, atom: String? = nil) throws(InspectorError) -> Difference {
        let fromStep = try journal.step(from)
        let toStep = try journal.step(to)
        return try journal.difference(from: fromStep, to: toStep, atoms: atom) { () throws(InspectorError) -> Difference in
            var selected: Set<Int>?
            if let atom {
                // Both ends: an atom live at one may be released before the other's keyframe, or
                // have another number there.
                let fromDeclarations = try journal.state(at: fromStep, decodingValuesOf: []).declarations
                let toDeclarations = try journal.state(at: toStep, decodingValuesOf: []).declarations
                selected = Naming(declarations: fromDeclarations.merging(toDeclarations) { $1 }).matching(atom)
            }
            let fromState = try journal.state(at: fromStep, decodingValuesOf: selected)
            let toState = try journal.state(at: toStep, decodingValuesOf: selected)
            return try difference(fromState, toState, atom: atom, journal: journal)
        }
    }

    static func difference(_ from: JournalState, _ to: JournalState, atom pattern: String?, journal: InspectedJournal) throws(InspectorError) -> Difference {
        // Atoms are numbered per journal; each state declares its live atoms (`diff J last 0`
        // runs backwards).
        let names = Naming(declarations: from.declarations.merging(to.declarations) { $1 })
        var selected: Set<Int>?
        if let pattern {
            selected = try AtomSelection.among(pattern, names.declarations, journal: journal)
        }
        func included(_ id: Int) -> Bool { selected?.contains(id) ?? true }
        // Live atoms by identity: an atom released and seen again after a keyframe has a new
        // number, and is the same atom at both ends.
        func byIdentity(_ state: JournalState) -> [String: Int] {
            Dictionary(state.liveIDs.filter(included).map { (state.declarations[$0]?.identityKey ?? "#\($0)", $0) }, uniquingKeysWith: min)
        }
        let fromAtoms = byIdentity(from)
        let toAtoms = byIdentity(to)
        let changed = fromAtoms.compactMap { identity, fromID -> Difference.Changed? in
            guard let toID = toAtoms[identity] else { return nil }
            var old = from.values[fromID]!
            old.id = toID  // the same atom under another number: compare the values only
            let new = to.values[toID]!
            guard old != new else { return nil }
            return Difference.Changed(atom: names.name(toID), from: display(old), to: display(new), diff: lineDiff(old, new))
        }
        func edgeNames(_ edges: Set<EdgeEntry>) -> Set<String> {
            Set(edges.filter { included($0.from) || included($0.to) }.map { "\(names.name($0.from)) -> \(names.name($0.to))" })
        }
        let oldEdges = edgeNames(from.edges)
        let newEdges = edgeNames(to.edges)
        return Difference(
            from: from.step,
            to: to.step,
            changed: changed.sorted { $0.atom < $1.atom },
            created: toAtoms.filter { fromAtoms[$0.key] == nil }.values.map(names.name).sorted(),
            released: fromAtoms.filter { toAtoms[$0.key] == nil }.values.map(names.name).sorted(),
            edgesAdded: newEdges.subtracting(oldEdges).sorted(),
            edgesRemoved: oldEdges.subtracting(newEdges).sorted()
        )
    }

    /// The value as JSON for `--json`: the recorded JSON, or the dump as a string.
    static func display(_ entry: ValueEntry) -> JSONValue {
        if entry.redacted == true { return .string("<redacted>") }
        if entry.phase == nil, let v = entry.v { return v }
        return .string(entry.dump ?? "<unknown>")
    }

    /// A line diff of two values as `show` prints them: their pretty-printed JSON, or their
    /// dump or phase (``LineDiff``).
    package static func lineDiff(_ old: ValueEntry, _ new: ValueEntry) -> String {
        if old.redacted == true || new.redacted == true {
            return "- \(old.displayText)\n+ \(new.displayText)"
        }
        return LineDiff.render(old: old.displayText, new: new.displayText) ?? "(values are equal when dumped)"
    }

    /// The text or JSON for `diff`; `differs` tells `--exit-code` what to return.
    package static func run(_ journal: InspectedJournal, from: StepSpec, to: StepSpec, atom: String? = nil, json: Bool = false, style: Style = .plain) throws(InspectorError) -> (output: String, differs: Bool) {
        let difference = try difference(journal, from: from, to: to, atom: atom)
        if json {
            return (JSONOutput.encode(difference), !difference.isEmpty)
        }
        var lines = [style.dim("diff step \(difference.from) → step \(difference.to)")]
        if difference.isEmpty {
            lines.append("no differences")
        }
        for change in difference.changed {
            lines.append(style.bold("~ \(change.atom)"))
            lines += change.diff.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("-") ? style.red(String(line)) : line.hasPrefix("+") ? style.green(String(line)) : String(line)
            }.map { "  " + $0 }
        }
        lines += difference.created.map { style.green("+ \($0) (created)") }
        lines += difference.released.map { style.red("- \($0) (released)") }
        if !difference.edgesAdded.isEmpty || !difference.edgesRemoved.isEmpty {
            lines.append(style.bold("edges"))
            lines += difference.edgesAdded.map { style.green("+ \($0)") }
            lines += difference.edgesRemoved.map { style.red("- \($0)") }
        }
        return (lines.joined(separator: "\n"), !difference.isEmpty)
    }
}
