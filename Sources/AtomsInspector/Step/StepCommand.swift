/// One command of the step vocabulary, parsed: what every front end runs.
///
/// The `step` and `attach` prompts parse what is typed with ``parse(_:)``; the full-screen
/// timeline and the debug adapter build commands from keys and requests. ``StepSession``
/// runs them all (``StepSession/run(_:)``), so every front end moves and searches alike.
package enum StepCommand: Sendable, Equatable {
    /// Forward this many steps.
    case next(Int)
    /// Back this many steps.
    case previous(Int)
    /// To a step.
    case goTo(StepSpec)
    /// To the first step.
    case first
    /// To the last step (the newest, on a journal still being recorded).
    case last
    /// Read what was appended since the journal was opened.
    case reload
    /// The values at this step: of the atoms matching a pattern, or of every live atom.
    case show(atoms: String?)
    /// What changed from a step (the previous position when `nil`) to here.
    case diff(from: StepSpec?)
    /// The dependency graph here, as DOT.
    case graph
    /// The transactions around here.
    case log
    /// To the next (or previous) step that changes an atom matching a pattern.
    case find(atoms: String, backwards: Bool)
    /// The step that last changed an atom, its write site and dependency path.
    case blame(atoms: String)
    /// What the transaction that led here cost.
    case cost
    /// To the next (or previous) step where a condition becomes true.
    case `where`(String, backwards: Bool)
    /// Return a running program to the present (`attach` only).
    case live
    /// Write a value into a running program at the present (`attach` only): the path of an
    /// atom or a member of its value, and the new value's JSON, as typed.
    case set(path: String, value: String)
    /// The list of commands.
    case help
    /// Leave.
    case quit

    /// The command's verb.
    package var verb: StepVerb {
        switch self {
        case .next: .next
        case .previous: .prev
        case .goTo: .goto
        case .first: .first
        case .last: .last
        case .reload: .reload
        case .show: .show
        case .diff: .diff
        case .graph: .graph
        case .log: .log
        case .find: .find
        case .blame: .blame
        case .cost: .cost
        case .where: .where
        case .live: .live
        case .set: .set
        case .help: .help
        case .quit: .quit
        }
    }

    /// Parses one typed line; `nil` for a line of only spaces.
    ///
    /// - Throws: ``InspectorError`` (usage) for an unknown command or a missing or malformed
    ///   argument, with an example of the right form.
    package static func parse(_ line: String) throws(InspectorError) -> StepCommand? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let word = words.first else { return nil }
        guard let verb = StepVerb(spelling: word) else {
            throw InspectorError(.usage, "unknown command '\(word)' — type help for the list")
        }
        let arguments = words.dropFirst()
        switch verb {
        case .next: return .next(try count(arguments.first))
        case .prev: return .previous(try count(arguments.first))
        case .goto:
            guard let text = arguments.first else {
                throw InspectorError(.usage, "goto needs a step — e.g. goto 12, goto last-3")
            }
            return .goTo(try StepSpec.parse(text))
        case .first: return .first
        case .last: return .last
        case .reload: return .reload
        case .show: return .show(atoms: arguments.first)
        case .diff: return .diff(from: try arguments.first.map { text throws(InspectorError) in try StepSpec.parse(text) })
        case .graph: return .graph
        case .log: return .log
        case .find:
            let backwards = arguments.first == "-b"
            guard let pattern = arguments.dropFirst(backwards ? 1 : 0).first else {
                throw InspectorError(.usage, "find needs an atom — e.g. find CounterAtom, find -b Todo*")
            }
            return .find(atoms: pattern, backwards: backwards)
        case .blame:
            guard let pattern = arguments.first else {
                throw InspectorError(.usage, "blame needs an atom — e.g. blame StatsAtom, blame 'Draft*'")
            }
            return .blame(atoms: pattern)
        case .cost: return .cost
        case .where:
            // The expression is the rest of the line as typed: its strings keep their spaces.
            var rest = line.drop(while: \.isWhitespace).dropFirst(word.count).drop(while: \.isWhitespace)
            let backwards = rest.hasPrefix("-b") && (rest.count == 2 || rest.dropFirst(2).first!.isWhitespace)
            if backwards { rest = rest.dropFirst(2).drop(while: \.isWhitespace) }
            guard !rest.isEmpty else {
                throw InspectorError(.usage, "where needs a condition — e.g. where StatsAtom.total > 3, where -b FilterAtom == \"all\"")
            }
            return .where(String(rest), backwards: backwards)
        case .live: return .live
        case .set: return try set(line.drop(while: \.isWhitespace).dropFirst(word.count))
        case .help: return .help
        case .quit: return .quit
        }
    }

    /// `PATH = JSON`: split at the first `=` whose left side is a path into an atom's value.
    private static func set(_ rest: Substring) throws(InspectorError) -> StepCommand {
        var search = rest.startIndex
        while let equals = rest[search...].firstIndex(of: "=") {
            let path = rest[..<equals].trimmingWhitespace()
            let value = rest[rest.index(after: equals)...].trimmingWhitespace()
            if !path.isEmpty, !value.isEmpty, case .path? = try? WhereExpression.parse(String(path)) {
                return .set(path: String(path), value: String(value))
            }
            search = rest.index(after: equals)
        }
        throw InspectorError(.usage, "set needs PATH = JSON — e.g. set TodosAtom[0].isCompleted = true, set FilterAtom = \"completed\"")
    }

    private static func count(_ text: String?) throws(InspectorError) -> Int {
        guard let text else { return 1 }
        guard let count = Int(text), count >= 0 else {
            throw InspectorError(.usage, "'\(text)' is not a number of steps")
        }
        return count
    }
}

/// What running a ``StepCommand`` printed.
package struct StepReply: Sendable, Equatable {
    /// The text to show: the new position for a move, the values for `show`, …
    package var text: String
    /// Whether it was a search that found no step (or was stopped): the position stayed.
    package var searchMissed: Bool

    /// A reply of `text`.
    package init(_ text: String, searchMissed: Bool = false) {
        self.text = text
        self.searchMissed = searchMissed
    }
}
