import AtomsJournalReader

/// What Tab offers at the step prompt: command names at the start of a line; atom names
/// after `show`, `find`, `blame` and `where` (the word is a prefix, with `*` globs as `show`
/// takes them); `last` after `goto` and `diff`.
package struct StepCompletion: Sendable {
    /// The atoms' names: display names and labels.
    package let atomNames: [String]

    /// The commands, by their long names.
    package static let commands = ["blame", "diff", "find", "first", "goto", "graph", "help", "last", "log", "next", "prev", "quit", "reload", "show", "where"]

    /// Completes with these atom names.
    package init(atomNames: [String]) {
        self.atomNames = atomNames
    }

    /// The words that may replace `word`, sorted, given the line before it.
    package func candidates(before: String, word: String) -> [String] {
        let words = before.split(whereSeparator: \.isWhitespace)
        guard let command = words.first else {
            return Self.commands.filter { $0.hasPrefix(word) }
        }
        switch command {
        case "g", "goto", "d", "diff":
            return ["last"].filter { $0.hasPrefix(word) }
        case "s", "show", "f", "find", "blame", "w", "where":
            let glob = Glob(word + "*")
            return atomNames.filter(glob.matches)
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
