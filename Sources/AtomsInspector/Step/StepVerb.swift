/// The step prompt's commands by name: how each is spelled, what it takes, whether it moves
/// and what `help` says of it.
///
/// Every front end reads this one table: the `step` and `attach` prompts, Tab completion
/// (``StepCompletion``), Enter-repeat (``CommandRepeat``), the full-screen timeline and the
/// debug adapter's console. ``StepCommand`` is a parsed line.
package enum StepVerb: String, CaseIterable, Sendable {
    case next, prev, goto, first, last, reload, show, diff, graph, log, find, blame, cost, `where`, live, set, help, quit

    /// What follows the verb on a line.
    package enum Argument: Sendable {
        /// Nothing.
        case none
        /// A number of steps.
        case count
        /// A step (0, N, last, last-K).
        case step
        /// An atom name pattern (`*` globs).
        case atom
        /// A condition in the `where` language.
        case expression
        /// A path into an atom's value, `=`, and a JSON value.
        case assignment
    }

    private static let bySpelling: [String: StepVerb] = Dictionary(
        uniqueKeysWithValues: allCases.flatMap { verb in verb.spellings.map { ($0, verb) } }
    )

    /// The verb a word spells (`n`, `next`, …), if any.
    package init?(spelling: some StringProtocol) {
        guard let verb = Self.bySpelling[String(spelling)] else { return nil }
        self = verb
    }

    /// Every way to type it, the short forms first; the long name is ``rawValue``.
    package var spellings: [String] {
        switch self {
        case .next: ["n", "next"]
        case .prev: ["p", "prev", "previous"]
        case .goto: ["g", "goto"]
        case .show: ["s", "show"]
        case .diff: ["d", "diff"]
        case .log: ["l", "log"]
        case .find: ["f", "find"]
        case .where: ["w", "where"]
        case .help: ["h", "help", "?"]
        case .quit: ["q", "quit", "exit"]
        default: [rawValue]
        }
    }

    /// What the verb takes.
    package var argument: Argument {
        switch self {
        case .next, .prev: .count
        case .goto, .diff: .step
        case .show, .find, .blame: .atom
        case .set: .assignment
        case .where: .expression
        default: .none
        }
    }

    /// Whether it changes the position: `attach` sends the program where it leads.
    package var moves: Bool {
        switch self {
        case .next, .prev, .goto, .first, .last, .find, .where: true
        default: false
        }
    }

    /// Whether Enter on an empty line runs it again, as gdb repeats its stepping commands.
    package var repeatsOnEnter: Bool {
        switch self {
        case .next, .prev, .find, .where: true
        default: false
        }
    }

    /// Whether only a session over a running program has it (`live`, `set`).
    package var needsRunningProgram: Bool {
        self == .live || self == .set
    }

    /// The verbs of a session: all but `live` and `set` unless it drives a running program.
    package static func vocabulary(runningProgram: Bool) -> [StepVerb] {
        allCases.filter { runningProgram || !$0.needsRunningProgram }
    }

    /// `help`'s lines for this verb: its usage in an 18-column margin, then what it does.
    package var helpLines: [String] {
        let (usage, text): (String, [String]) = switch self {
        case .next: ("n, next [N]", ["move forward N steps (default 1)"])
        case .prev: ("p, prev [N]", ["move back N steps (default 1)"])
        case .goto: ("g, goto STEP", ["move to STEP (0, N, last, last-K)"])
        case .first: ("first, last", ["move to the first or last step (last: the newest, on a journal", "still being recorded)"])
        case .last: ("", [])
        case .reload: ("reload", ["read the transactions appended since the journal was opened"])
        case .show: ("s, show [ATOM]", ["values at this step (ATOM may use * globs)"])
        case .diff: ("d, diff [STEP]", ["what changed from STEP (default: the previous position) to here"])
        case .graph: ("graph", ["the dependency graph here, as DOT"])
        case .log: ("l, log", ["the transactions around here"])
        case .find: ("f, find ATOM", ["move to the next step that changes ATOM; find -b ATOM searches back"])
        case .blame: ("blame ATOM", ["the step that last changed ATOM, its write site and dependency path"])
        case .cost: ("cost", [
            "what the transaction that led here cost (journals recorded with",
            "timing): its phases, evaluations nested as they ran, effects and",
            "subscribers",
        ])
        case .where: ("w, where EXPR", [
            "move to the next step where EXPR becomes true (as find --where);",
            "where -b EXPR moves to the previous one",
        ])
        case .live: ("live", ["return the program to the present (before the first jump)"])
        case .set: ("set PATH = JSON", [
            "write a value into the program at the present, as one set",
            "transaction: set TodosAtom[0].isCompleted = true",
        ])
        case .help: ("h, help", ["this list"])
        case .quit: ("q, quit", ["leave"])
        }
        return text.enumerated().map { index, line in
            (index == 0 ? usage : "").rightPadded(to: 18) + line
        }
    }

    /// `help`: every verb of the session and what it does.
    package static func help(runningProgram: Bool) -> String {
        vocabulary(runningProgram: runningProgram).flatMap(\.helpLines).joined(separator: "\n")
    }
}
