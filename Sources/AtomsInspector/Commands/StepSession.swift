import AtomsJournalReader

/// `atoms-inspect step`: interactive time travel through a journal.
///
/// Feed it one command line at a time; it answers with text to print. The executable reads
/// lines from a terminal (with a prompt) or from a pipe, so sessions can be scripted.
package final class StepSession {
    private var journal: InspectedJournal
    private let style: Style
    /// The current step.
    package private(set) var position: Int
    private var previousPosition: Int
    private var state: JournalState
    /// Told where a long `find` or `where` is; returning `false` stops it and the position
    /// stays (the executable stops on Ctrl-C, and draws progress on a terminal).
    package var searchProgress: SearchProgress?

    /// Starts at `step` (default: the first step).
    ///
    /// The session keeps the states and transactions it decodes (a few dozen) for when it
    /// comes back to a step; a journal already keeping them is shared, not copied.
    package init(journal: InspectedJournal, at step: StepSpec = .number(0), style: Style = .plain) throws(InspectorError) {
        self.journal = journal.memoized()
        self.style = style
        position = try journal.step(step)
        previousPosition = position
        state = try journal.state(at: position)
    }

    private var first: Int { journal.reader.firstStep }
    private var last: Int { journal.reader.lastStep }

    /// The journal as the session reads it (reopened by `reload`), for views built beside
    /// the command line, such as the full-screen timeline.
    package var inspectedJournal: InspectedJournal { journal }

    /// The values at the current step, as `show` prints them.
    package var currentState: JournalState { state }

    /// The prompt: the position, as `[12/340] `.
    package var prompt: String {
        "[\(position)/\(last)] "
    }

    /// The names of every atom the journal declares (display names and labels), sorted: what
    /// Tab completes at the prompt.
    package var atomNames: [String] {
        let declarations = (try? journal.state(at: last, decodingValuesOf: []).declarations) ?? state.declarations
        return Set(declarations.values.flatMap { [$0.displayName, $0.label] }).sorted()
    }

    /// Commands and what they do, for `help`.
    package static let help = """
        n, next [N]       move forward N steps (default 1)
        p, prev [N]       move back N steps (default 1)
        g, goto STEP      move to STEP (0, N, last, last-K)
        first, last       move to the first or last step (last: the newest, on a journal
                          still being recorded)
        reload            read the transactions appended since the journal was opened
        s, show [ATOM]    values at this step (ATOM may use * globs)
        d, diff [STEP]    what changed from STEP (default: the previous position) to here
        graph             the dependency graph here, as DOT
        l, log            the transactions around here
        f, find ATOM      move to the next step that changes ATOM; find -b ATOM searches back
        blame ATOM        the step that last changed ATOM, its write site and dependency path
        cost              what the transaction that led here cost (journals recorded with
                          timing): its phases, evaluations nested as they ran, effects and
                          subscribers
        w, where EXPR     move to the next step where EXPR becomes true (as find --where);
                          where -b EXPR moves to the previous one
        h, help           this list
        q, quit           leave
        """

    /// Handles one command line; returns what to print and whether to quit.
    package func handle(_ line: String) -> (output: String, quit: Bool) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first else {
            return ("", false)
        }
        let arguments = Array(words.dropFirst())
        do {
            switch command {
            // Saturating: a count as large as Int.max moves to the last (or first) step.
            case "n", "next": return (try move(to: position.saturatingAdd(count(arguments))), false)
            case "p", "prev", "previous": return (try move(to: position.saturatingAdd(-count(arguments))), false)
            case "g", "goto":
                guard let text = arguments.first else { throw InspectorError(.usage, "goto needs a step — e.g. goto 12, goto last-3") }
                let spec = try StepSpec.parse(text)
                if case .fromLast = spec { _ = try reloadIfGrowing() }
                return (try move(to: journal.step(spec)), false)
            case "first": return (try move(to: first), false)
            case "last":
                _ = try reloadIfGrowing()
                return (try move(to: last), false)
            case "reload":
                let before = (header: journal.reader.header, size: journal.reader.fileSize, last: last)
                let added = try reload()
                // A journal that shrank, or starts differently, was recorded again.
                let note = journal.reader.header != before.header || journal.reader.fileSize < before.size || last < before.last
                    ? "reloaded \(journal.path): it changed (recorded again or cut short), steps \(first)…\(last)"
                    : "reloaded \(journal.path): steps \(first)…\(last), \(added) new transaction\(added == 1 ? "" : "s")"
                return (note + (journal.reader.isEnded ? " (the recording has ended)" : ""), false)
            case "s", "show":
                let atoms = try arguments.first.map { pattern throws(InspectorError) in try journal.atoms(matching: pattern, in: state) } ?? state.liveAtoms
                return (try ShowCommand.render(state, atoms: atoms, journal: journal, json: false, style: style), false)
            case "d", "diff":
                let from = try arguments.first.map { text throws(InspectorError) in try journal.step(StepSpec.parse(text)) } ?? previousPosition
                let (output, _) = try DiffCommand.run(journal, from: .number(from), to: .number(position), style: style)
                return (from == first && from != 0 ? output.replacing("diff step \(from)", with: "diff step \(from) (first)") : output, false)
            case "graph": return (state.graphDescription(distinguishingFamilies: true), false)
            case "l", "log":
                let options = LogCommand.Options(from: .number(max(first, position - 5)), to: .number(min(last, position + 5)), style: style)
                return (try LogCommand.run(journal, options: options), false)
            case "f", "find":
                let backwards = arguments.first == "-b"
                guard let pattern = arguments.dropFirst(backwards ? 1 : 0).first else {
                    throw InspectorError(.usage, "find needs an atom — e.g. find CounterAtom, find -b Todo*")
                }
                return (try find(pattern, backwards: backwards), false)
            case "blame":
                guard let pattern = arguments.first else {
                    throw InspectorError(.usage, "blame needs an atom — e.g. blame StatsAtom, blame 'Draft*'")
                }
                let blames = try BlameCommand.blame(journal, atom: pattern, at: .number(position))
                return (blames.map { BlameCommand.render($0, journal: journal, style: style) }.joined(separator: "\n\n"), false)
            case "cost":
                return (try StepCost.text(journal, at: position, declarations: state.declarations, style: style), false)
            case "w", "where":
                // The expression is the rest of the line as typed: its strings keep their spaces.
                var rest = line.drop(while: \.isWhitespace).dropFirst(command.count).drop(while: \.isWhitespace)
                let backwards = rest.hasPrefix("-b") && (rest.count == 2 || rest.dropFirst(2).first!.isWhitespace)
                if backwards { rest = rest.dropFirst(2).drop(while: \.isWhitespace) }
                guard !rest.isEmpty else {
                    throw InspectorError(.usage, "where needs a condition — e.g. where StatsAtom.total > 3, where -b FilterAtom == \"all\"")
                }
                return (try moveWhere(String(rest), backwards: backwards), false)
            case "h", "help", "?": return (Self.help, false)
            case "q", "quit", "exit": return ("", true)
            default:
                throw InspectorError(.usage, "unknown command '\(command)' — type help for the list")
            }
        } catch let error as InspectorError {
            if error.status == .tryAgain {
                return ("error: " + error.message.replacing("open it again", with: "type reload to open it again"), false)
            }
            return ("error: \(error.message)", false)
        } catch {
            return ("error: \(error)", false)
        }
    }

    /// Opens the journal again, keeping the position (moved into the journal's steps if a
    /// bounded journal dropped it); returns how many transactions were added.
    private func reload() throws(InspectorError) -> Int {
        let before = last
        journal = try journal.reopened()
        let kept = min(max(position, first), last)
        state = try journal.state(at: kept)
        position = kept
        previousPosition = min(max(previousPosition, first), last)
        return max(0, last - before)
    }

    /// Reloads a format 4 journal that has no end line yet (its program may still be
    /// appending), so that `last` means the newest step. Older journals and closed ones do
    /// not grow.
    private func reloadIfGrowing() throws(InspectorError) -> Int {
        guard journal.reader.header.version >= 4, !journal.reader.isEnded else { return 0 }
        return try reload()
    }

    private func count(_ arguments: [String]) throws(InspectorError) -> Int {
        guard let text = arguments.first else { return 1 }
        guard let count = Int(text), count >= 0 else {
            throw InspectorError(.usage, "'\(text)' is not a number of steps")
        }
        return count
    }

    /// Moves to a step (clamped to the journal) and describes it.
    private func move(to step: Int) throws(InspectorError) -> String {
        let target = min(max(step, first), last)
        var note = ""
        if target != step {
            note = style.dim(step > last ? "  (at the last step)" : "  (at the first step)")
        }
        if target != position {
            previousPosition = position
            state = try journal.advance(state, to: target)
            position = target
        }
        return try describePosition() + note
    }

    /// `[12/340] set CounterAtom @ App/Main.swift:9`: the position and the transaction that
    /// led to it.
    package func describePosition() throws(InspectorError) -> String {
        let label = style.bold("[\(position)/\(last)]")
        guard position > first else {
            return "\(label) before the first transaction"
        }
        let record = try journal.transaction(position, decodingValuesOf: [])
        let names = Naming(declarations: state.declarations)
        let changed = (record.values ?? []).map { names.name($0.id) } + (record.released ?? []).map { "-" + names.name($0) }
        return "\(label) \(style.cyan(record.cause)) \(changed.isEmpty ? "-" : changed.joined(separator: ", "))\(record.at.map { " @ " + $0 } ?? "")"
    }

    /// Moves to the next (or previous) step where `expression` becomes true.
    private func moveWhere(_ expression: String, backwards: Bool) throws(InspectorError) -> String {
        switch try JournalSearch.next(.condition(expression), in: journal, from: position, backwards ? .backward : .forward, progress: searchProgress) {
        case .found(let target):
            return try move(to: target)
        case .none:
            let bound = try FindCommand.bind(expression, in: journal)
            return "no \(backwards ? "earlier" : "later") step where \(bound.expression) becomes true"
        case .interrupted(let step):
            return interrupted(at: step)
        }
    }

    private func find(_ pattern: String, backwards: Bool) throws(InspectorError) -> String {
        switch try JournalSearch.next(.changes(pattern), in: journal, from: position, backwards ? .backward : .forward, progress: searchProgress) {
        case .found(let target):
            return try move(to: target)
        case .none:
            return "no \(backwards ? "earlier" : "later") step changes '\(pattern)'"
        case .interrupted(let step):
            return interrupted(at: step)
        }
    }

    private func interrupted(at step: Int) -> String {
        "interrupted at step \(step); still at step \(position)"
    }
}

extension Int {
    /// `self + other`, or `Int.max`/`Int.min` where that overflows.
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
