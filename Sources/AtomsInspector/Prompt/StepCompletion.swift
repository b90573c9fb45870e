import AtomsJournalReader

/// What Tab offers at the step prompt: command names at the start of a line; atom names
/// after `show`, `find`, `blame` and `where` (the word is a prefix, with `*` globs as `show`
/// takes them); `last` after `goto` and `diff`.
package struct StepCompletion: Sendable {
    /// The atoms' names: display names and labels.
    package let atomNames: [String]

    /// The step prompt's commands, by their long names.
    package static let commands = ["blame", "cost", "diff", "find", "first", "goto", "graph", "help", "last", "log", "next", "prev", "quit", "reload", "show", "where"]
    /// The commands offered: the step prompt's and any a session adds (`attach`'s `live`).
    package let commands: [String]

    /// Completes with these atom names, and `extraCommands` beside the step prompt's.
    package init(atomNames: [String], extraCommands: [String] = []) {
        self.atomNames = atomNames
        commands = (Self.commands + extraCommands).sorted()
    }

    /// The words that may replace `word`, sorted, given the line before it.
    package func candidates(before: String, word: String) -> [String] {
        let words = before.split(whereSeparator: \.isWhitespace)
        guard let command = words.first else {
            return commands.filter { $0.hasPrefix(word) }
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
