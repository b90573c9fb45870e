import AtomsJournalReader

/// Which atoms a name pattern selects in a journal, and the one error when none does.
///
/// Every command that takes an atom (`show`, `diff --atom`, `log --atom`, `blame`, `profile
/// --atom`, `find`, the step prompt's and the debug adapter's) selects through here, by one
/// rule: a pattern names an atom by its display name (`label[key]`), its label or its
/// module-qualified type, where `*` matches any run of characters.
package enum AtomSelection {
    /// The live atoms of `state` the pattern names, sorted by name.
    ///
    /// - Throws: ``InspectorError`` (usage) when it names none of them.
    package static func live(_ pattern: String, in state: JournalState, journal: InspectedJournal) throws(InspectorError) -> [AtomDeclaration] {
        let ids = matching(Glob(pattern), state.declarations.filter { state.liveIDs.contains($0.key) })
        let matches = state.liveAtoms.filter { ids.contains($0.id) }
        guard !matches.isEmpty else {
            throw noMatch(pattern, journal: journal, scope: "at step \(state.step)", known: state.liveAtoms)
        }
        return matches
    }

    /// The numbers of every atom declared by `step` that the pattern names, with the
    /// declarations they were found in.
    ///
    /// A keyframe declares what is live: an atom released before the keyframe nearest `step`
    /// (or an earlier number of one that came back) is declared further back, so when none
    /// matches at `step`, or with `everyNumber`, every declaration up to `step` is read.
    ///
    /// - Throws: ``InspectorError`` (usage) when it names no atom declared by `step`.
    package static func declared(_ pattern: String, in journal: InspectedJournal, through step: Int, everyNumber: Bool = false) throws(InspectorError) -> (ids: Set<Int>, declarations: [Int: AtomDeclaration]) {
        let glob = Glob(pattern)
        var declarations = try journal.state(at: step, decodingValuesOf: []).declarations
        var ids = matching(glob, declarations)
        if everyNumber || ids.isEmpty {
            declarations = try journal.declarations(through: step)
            ids = matching(glob, declarations)
        }
        guard !ids.isEmpty else {
            let scope = step == journal.reader.lastStep ? "in the journal" : "declared by step \(step)"
            throw noMatch(pattern, journal: journal, scope: scope, known: declarations.values)
        }
        return (ids, declarations)
    }

    /// The numbers among `declarations` (of the steps a command reads) that the pattern names.
    ///
    /// - Throws: ``InspectorError`` (usage) when it names none of them.
    package static func among(_ pattern: String, _ declarations: [Int: AtomDeclaration], journal: InspectedJournal) throws(InspectorError) -> Set<Int> {
        let ids = matching(Glob(pattern), declarations)
        guard !ids.isEmpty else {
            throw noMatch(pattern, journal: journal, scope: "in the journal", known: declarations.values)
        }
        return ids
    }

    /// Every number of each atom the pattern names, an atom being its identity (as
    /// ``BoundExpression`` binds a path): a damaged journal may declare one identity again
    /// under a label the pattern does not name.
    static func matching(_ glob: Glob, _ declarations: [Int: AtomDeclaration]) -> Set<Int> {
        let identities = Set(declarations.values.filter(glob.matches).map(\.identityKey))
        return Set(declarations.values.filter { identities.contains($0.identityKey) }.map(\.id))
    }

    /// `no atom matches 'Nope' in the journal — atoms: A, B, C; list them with …`.
    private static func noMatch(_ pattern: String, journal: InspectedJournal, scope: String, known: some Sequence<AtomDeclaration>) -> InspectorError {
        let names = Set(known.map(\.displayName)).sorted()
        let listed = names.isEmpty ? "there are none" : "atoms: " + names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
        return InspectorError(.usage, path: journal.path, "no atom matches '\(pattern)' \(scope) — \(listed); list them with `atoms-inspect show`")
    }
}
