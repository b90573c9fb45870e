import AtomsJournalReader

/// What Tab offers at the step prompt: command names at the start of a line; atom names
/// after a command that takes an atom or a condition (`show`, `find`, `blame`, `where`: the
/// word is a prefix, with `*` globs as `show` takes them); `last` after one that takes a step
/// (`goto`, `diff`). ``StepVerb`` says what each command takes.
package struct StepCompletion: Sendable {
    /// The atoms' names: display names and labels.
    package let atomNames: [String]

    /// The commands offered, by their long names: the step prompt's, and `live` over a
    /// running program.
    package let commands: [String]

    /// Completes with these atom names, and the commands of a session over a running
    /// program (`attach`) or a journal.
    package init(atomNames: [String], runningProgram: Bool = false) {
        self.atomNames = atomNames
        commands = StepVerb.vocabulary(runningProgram: runningProgram).map(\.rawValue).sorted()
    }

    /// The words that may replace `word`, sorted, given the line before it.
    package func candidates(before: String, word: String) -> [String] {
        let words = before.split(whereSeparator: \.isWhitespace)
        guard let command = words.first else {
            return commands.filter { $0.hasPrefix(word) }
        }
        switch StepVerb(spelling: command)?.argument {
        case .step?:
            return ["last"].filter { $0.hasPrefix(word) }
        case .atom?, .expression?, .assignment?:
            let glob = Glob(word + "*")
            return atomNames.filter { glob.matches($0) }
        default:
            return []
        }
    }
}

extension StepSession {
    /// Tab's completions at this session's prompt: its journal's atoms.
    package var completion: StepCompletion {
        StepCompletion(atomNames: atomNames)
    }
}
