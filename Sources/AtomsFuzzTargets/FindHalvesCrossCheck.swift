import AtomsInspector
import AtomsJournal

/// `find` searches a long journal in two halves on two threads, each with a reader of its own
/// (``FindCommand``); forced into halves on any journal, it must answer as one pass does, in
/// every mode: the same steps, or the same error.
enum FindHalvesCrossCheck {
    /// Where `find` in halves and in one pass disagree on the journal at `path`, for a
    /// condition on one of its atoms (nothing when they agree, or it names no atom).
    static func disagreements(at path: String) -> [SummaryCrossCheck.Disagreement] {
        guard let journal = try? InspectedJournal(path: path), let atom = someAtom(of: journal) else {
            return []
        }
        let expression = "\(atom) != 0"
        var found: [SummaryCrossCheck.Disagreement] = []
        for mode in FindCommand.Mode.allCases {
            let halves = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: 1) }
            let onePass = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: .max) }
            if halves != onePass {
                found.append(("find-halves-differ", "find --where '\(expression)' (\(mode)): in halves \(halves); in one pass \(onePass)"))
            }
        }
        return found
    }

    /// The name of the first atom the journal declares, as `find` binds it: from the state at
    /// its last step, or the transactions of its first steps (a keyframe declares live atoms
    /// only; a journal cut short may hold none).
    static func someAtom(of journal: InspectedJournal) -> String? {
        let reader = journal.reader
        var declarations = (try? journal.state(at: reader.lastStep, decodingValuesOf: []))?.declarations ?? [:]
        if declarations.isEmpty {
            declarations = (try? journal.declarations(through: min(reader.lastStep, reader.firstStep + 64))) ?? [:]
        }
        return declarations.values.min { $0.id < $1.id }?.displayName
    }
}
