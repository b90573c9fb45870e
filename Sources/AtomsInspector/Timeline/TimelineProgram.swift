import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The full-screen timeline's behaviour: a key becomes a change of the ``TimelineModel``,
/// made through the same ``StepCommand``s the `step` prompt runs (`next`, `goto`, `find`,
/// `where`, `last`), so the screen and the prompt agree at every step.
package final class TimelineProgram {
    /// The keys and what they do: the `?` pane and the man page are made from this list.
    package static let keyList: [(keys: String, meaning: String)] = [
        ("Right or n, Left or p", "the next, the previous step (Down, Up too in the transactions pane)"),
        ("PgDn, PgUp", "ten steps forward, back"),
        ("Home, End", "the first, the last step (on a journal still being recorded, End follows it: new transactions appear as they are written)"),
        ("g STEP", "go to a step (0, N, last, last-K)"),
        ("/ATOM", "the next step that changes ATOM (* globs)"),
        ("/EXPR", "with a comparison, the next step where EXPR becomes true, as where (/-b searches back)"),
        ("Down, Up", "select an atom (values pane)"),
        ("b", "blame the selected atom: the write that last changed it"),
        ("Enter", "the selected atom's whole value and its previous one, scrollable"),
        ("Tab", "move between the transactions and values panes"),
        ("?", "this help"),
        ("Esc", "close a pane or a prompt"),
        ("q, Ctrl-C", "quit"),
    ]

    /// The keys as a table of lines at most 78 columns wide, for `?`.
    package static var keys: String {
        keyList.flatMap { entry in
            wrapped(entry.meaning, width: 54).enumerated().map { index, line in
                (index == 0 ? entry.keys : "").rightPadded(to: 24) + line
            }
        }.joined(separator: "\n")
    }

    /// The keys in one paragraph, for the man page.
    package static var keysParagraph: String {
        keyList.map { "\($0.keys): \($0.meaning)" }.joined(separator: "; ") + "."
    }

    private static func wrapped(_ text: String, width: Int) -> [String] {
        var lines = [""]
        for word in text.split(separator: " ") {
            if !lines[lines.count - 1].isEmpty, lines[lines.count - 1].count + 1 + word.count > width {
                lines.append("")
            }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + word
        }
        return lines
    }

    private let session: StepSession
    /// The screen's state.
    package private(set) var model: TimelineModel
    private var layout: TimelineLayout
    private var follower: JournalFollower?

    /// A timeline over `session`, laid out for `layout`.
    ///
    /// - Throws: ``InspectorError`` when the journal cannot be read at the session's step.
    package init(session: StepSession, layout: TimelineLayout) throws(InspectorError) {
        self.session = session
        self.layout = layout
        model = TimelineModel(frame: try TimelineFrame(session: session, around: layout.transactionRows))
    }

    /// Lays the screen out again for a new size.
    package func resize(to layout: TimelineLayout) throws(InspectorError) {
        guard layout != self.layout else { return }
        self.layout = layout
        try refresh()
    }

    /// Handles one key; returns whether to quit.
    ///
    /// - Throws: ``InspectorError`` when the journal can no longer be read.
    package func handle(_ key: TimelineKey) throws(InspectorError) -> Bool {
        if key == .interrupt { return true }
        if model.prompt != nil {
            try handlePrompt(key)
            return false
        }
        if model.overlay != nil {
            handleOverlay(key)
            return false
        }
        return try handleMain(key)
    }

    /// Called when no key came for a while: on a followed journal, moves to its newest step.
    ///
    /// - Returns: Whether the screen changed.
    /// - Throws: ``InspectorError`` when the journal was deleted or cannot be read.
    package func tick() throws(InspectorError) -> Bool {
        guard FileManager.default.fileExists(atPath: model.frame.path) else {
            throw InspectorError(.noInput, path: model.frame.path, "the journal was deleted or moved while the timeline showed it — run step --tui again when it is back")
        }
        guard model.following, let follower else { return false }
        let events: [JournalFollower.Event]
        do {
            events = try follower.poll()
        } catch {
            throw InspectorError(error)
        }
        let grew = events.contains { event in
            switch event {
            case .transaction(let record): record.seq > model.frame.last
            case .skipped, .restarted, .ended: true
            }
        }
        guard grew else { return false }
        run(.last)
        model.following = !follower.isEnded
        if follower.isEnded {
            model.message = .notice("the recording has ended at step \(session.position)")
        }
        try refresh()
        return true
    }

    private func handleMain(_ key: TimelineKey) throws(InspectorError) -> Bool {
        let movesSteps = model.focus == .transactions
        switch key {
        case .character("q"): return true
        case .right, .character("n"): run(.next(1))
        case .left, .character("p"): run(.previous(1))
        case .down where movesSteps: run(.next(1))
        case .up where movesSteps: run(.previous(1))
        case .down: model.selected = min(model.selected + 1, max(0, model.frame.atoms.count - 1))
        case .up: model.selected = max(0, model.selected - 1)
        case .pageDown: run(.next(10))
        case .pageUp: run(.previous(10))
        case .home: run(.first)
        case .end:
            run(.last)
            startFollowing()
        case .tab, .backTab: model.focus = model.focus == .values ? .transactions : .values
        case .character("g"): model.prompt = .goTo
        case .character("/"): model.prompt = .search
        case .character("b"): blameSelected()
        case .enter: expandSelected()
        case .character("?"), .character("h"):
            model.overlay = .init(title: "Keys", lines: Self.keys.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        case .escape: model.message = nil
        default: return false
        }
        try refresh()
        return false
    }

    private func handlePrompt(_ key: TimelineKey) throws(InspectorError) {
        switch key {
        case .character(let character): model.promptText.append(character)
        case .backspace: _ = model.promptText.popLast()
        case .escape:
            model.prompt = nil
            model.promptText = ""
        case .enter:
            let text = model.promptText.trimmingWhitespace()
            let prompt = model.prompt
            model.prompt = nil
            model.promptText = ""
            guard !text.isEmpty else { return }
            // Typed as the step prompt's command after its verb: the one parser reads it.
            let verb: StepVerb? = switch prompt {
            case .goTo?: .goto
            // A comparison makes it a `where` expression; otherwise an atom to find.
            case .search?: text.contains { "=<>!&|".contains($0) } ? .where : .find
            case nil: nil
            }
            if let verb {
                run(typed: verb.rawValue + " " + text)
            }
            try refresh()
        default: break
        }
    }

    private func handleOverlay(_ key: TimelineKey) {
        guard var overlay = model.overlay else { return }
        let page = layout.overlayRows
        let bottom = max(0, overlay.lines.count - page)
        switch key {
        case .down, .character("j"): overlay.scroll += 1
        case .up, .character("k"): overlay.scroll -= 1
        case .pageDown, .character(" "): overlay.scroll += page
        case .pageUp: overlay.scroll -= page
        case .home: overlay.scroll = 0
        case .end: overlay.scroll = bottom
        case .escape, .enter, .character("q"), .character("?"):
            model.overlay = nil
            return
        default: break
        }
        overlay.scroll = min(max(0, overlay.scroll), bottom)
        model.overlay = overlay
    }

    /// Runs a command of the step vocabulary (which stops following); shows the first line
    /// of what it printed when `report`, when a search found nothing, or when it failed.
    private func run(_ command: StepCommand, report: Bool = false) {
        model.following = false
        do {
            let reply = try session.run(command)
            let text = report || reply.searchMissed ? reply.text : ""
            model.message = text.split(separator: "\n").first.map { .notice(String($0)) }
        } catch {
            model.message = .error(error)
        }
    }

    /// Runs a line typed at a prompt of the screen, as the step prompt would, and shows what
    /// it printed.
    private func run(typed line: String) {
        do {
            guard let command = try StepCommand.parse(line) else { return }
            run(command, report: true)
        } catch {
            model.following = false
            model.message = .error(error)
        }
    }

    /// Follows the journal from `End` when its recorder may still append to it.
    private func startFollowing() {
        guard model.frame.mayGrow else { return }
        if follower == nil { follower = JournalFollower(path: model.frame.path) }
        model.following = true
    }

    private func blameSelected() {
        guard let atom = model.selectedAtom else { return }
        let journal = session.inspectedJournal
        do {
            let blames = try BlameCommand.blame(journal, atom: atom.name, at: .number(session.position))
            let text = blames.map { BlameCommand.render($0, journal: journal, style: .plain) }.joined(separator: "\n\n")
            model.overlay = .init(title: "blame \(atom.name) at step \(session.position)", lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        } catch {
            model.message = .error(error)
        }
    }

    private func expandSelected() {
        guard let atom = model.selectedAtom else { return }
        var lines = atom.change == .released ? ["(released at this step)"] : atom.value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !atom.marks.isEmpty { lines.append("(\(atom.marks.joined(separator: ", ")))") }
        if let previous = atom.previous {
            lines += ["", "before step \(session.position):"] + previous.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        model.overlay = .init(title: "\(atom.name) at step \(session.position)", lines: lines)
    }

    /// Reads the frame at the session's position again, keeping the selection on the same
    /// atom where it still is.
    private func refresh() throws(InspectorError) {
        let selectedName = model.selectedAtom?.name
        model.frame = try TimelineFrame(session: session, around: layout.transactionRows)
        if let selectedName, let index = model.frame.atoms.firstIndex(where: { $0.name == selectedName }) {
            model.selected = index
        } else {
            model.selected = min(model.selected, max(0, model.frame.atoms.count - 1))
        }
    }
}
