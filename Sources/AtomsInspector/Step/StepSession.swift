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
    package static let help = StepVerb.help(runningProgram: false)

    /// Handles one typed line; returns what to print and whether to quit.
    package func handle(_ line: String) -> (output: String, quit: Bool) {
        do {
            guard let command = try StepCommand.parse(line) else { return ("", false) }
            if command == .quit { return ("", true) }
            return (try run(command).text, false)
        } catch {
            return (Self.errorText(error), false)
        }
    }

    /// How a prompt shows a command's error: `error: …`, or `<file>:<line>: error: …` for an
    /// error about one line of a file (a damaged transaction), as the command line says it.
    package static func errorText(_ error: InspectorError) -> String {
        let message = error.status == .tryAgain
            ? error.message.replacing("open it again", with: "type reload to open it again")
            : error.message
        guard let path = error.path, let line = error.line else {
            return "error: \(message)"
        }
        return "\(path):\(line): error: \(message)"
    }

    /// Runs one command: moves and searches change the position; the others describe it.
    ///
    /// - Throws: ``InspectorError`` for a step outside the journal, an atom no name matches,
    ///   a malformed condition, a journal that cannot be read, or `live` (a running program's
    ///   command, which ``AttachSession`` runs).
    package func run(_ command: StepCommand) throws(InspectorError) -> StepReply {
        switch command {
        // Saturating: a count as large as Int.max moves to the last (or first) step.
        case .next(let count): return StepReply(try move(to: position.saturatingAdd(count)))
        case .previous(let count): return StepReply(try move(to: position.saturatingAdd(-count)))
        case .goTo(let spec):
            if case .fromLast = spec { _ = try reloadIfGrowing() }
            return StepReply(try move(to: journal.step(spec)))
        case .first: return StepReply(try move(to: first))
        case .last:
            _ = try reloadIfGrowing()
            return StepReply(try move(to: last))
        case .reload:
            let before = (header: journal.reader.header, size: journal.reader.fileSize, last: last)
            let added = try reload()
            // A journal that shrank, or starts differently, was recorded again.
            let note = journal.reader.header != before.header || journal.reader.fileSize < before.size || last < before.last
                ? "reloaded \(journal.path): it changed (recorded again or cut short), steps \(first)…\(last)"
                : "reloaded \(journal.path): steps \(first)…\(last), \(added) new transaction\(added == 1 ? "" : "s")"
            return StepReply(note + (journal.reader.isEnded ? " (the recording has ended)" : ""))
        case .show(let pattern):
            let atoms = try pattern.map { pattern throws(InspectorError) in try AtomSelection.live(pattern, in: state, journal: journal) } ?? state.liveAtoms
            return StepReply(try ShowCommand.render(state, atoms: atoms, journal: journal, json: false, style: style))
        case .diff(let spec):
            let from = try spec.map { spec throws(InspectorError) in try journal.step(spec) } ?? previousPosition
            let (output, _) = try DiffCommand.run(journal, from: .number(from), to: .number(position), style: style)
            return StepReply(from == first && from != 0 ? output.replacing("diff step \(from)", with: "diff step \(from) (first)") : output)
        case .graph: return StepReply(state.graphDescription(distinguishingFamilies: true))
        case .log:
            let options = LogCommand.Options(from: .number(max(first, position - 5)), to: .number(min(last, position + 5)), style: style)
            return StepReply(try LogCommand.run(journal, options: options))
        case .find(let pattern, let backwards): return try find(pattern, backwards: backwards)
        case .blame(let pattern):
            let blames = try BlameCommand.blame(journal, atom: pattern, at: .number(position))
            return StepReply(blames.map { BlameCommand.render($0, journal: journal, style: style) }.joined(separator: "\n\n"))
        case .cost: return StepReply(try StepCost.text(journal, at: position, declarations: state.declarations, style: style))
        case .where(let expression, let backwards): return try moveWhere(expression, backwards: backwards)
        case .live:
            throw InspectorError(.usage, "live returns a running program to the present — it works in atoms-inspect attach")
        case .set:
            throw InspectorError(.usage, "set writes a value into a running program — it works in atoms-inspect attach; a journal is history")
        case .help: return StepReply(Self.help)
        case .quit: return StepReply("")
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
    private func moveWhere(_ expression: String, backwards: Bool) throws(InspectorError) -> StepReply {
        switch try JournalSearch.next(.condition(expression), in: journal, from: position, backwards ? .backward : .forward, progress: searchProgress) {
        case .found(let target):
            return StepReply(try move(to: target))
        case .none:
            let bound = try FindCommand.bind(expression, in: journal)
            return StepReply("no \(backwards ? "earlier" : "later") step where \(bound.expression) becomes true", searchMissed: true)
        case .interrupted(let step):
            return interrupted(at: step)
        }
    }

    private func find(_ pattern: String, backwards: Bool) throws(InspectorError) -> StepReply {
        switch try JournalSearch.next(.changes(pattern), in: journal, from: position, backwards ? .backward : .forward, progress: searchProgress) {
        case .found(let target):
            return StepReply(try move(to: target))
        case .none:
            return StepReply("no \(backwards ? "earlier" : "later") step changes '\(pattern)'", searchMissed: true)
        case .interrupted(let step):
            return interrupted(at: step)
        }
    }

    private func interrupted(at step: Int) -> StepReply {
        StepReply("interrupted at step \(step); still at step \(position)", searchMissed: true)
    }
}

extension Int {
    /// `self + other`, or `Int.max`/`Int.min` where that overflows.
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
