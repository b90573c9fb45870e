import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

/// The full-screen timeline's keys, run on a model without a terminal, against the `step`
/// prompt's answers.
struct TimelineProgramTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    static let todo = repository.appendingPathComponent("samples/journals/todo.jsonl").path
    static let layout = TimelineLayout(columns: 80, rows: 24)

    /// The counter sample's journal, line by line with their newlines: 37 transactions, then
    /// its end line.
    static func counterLines() throws -> [String] {
        try String(contentsOfFile: repository.appendingPathComponent("samples/journals/counter.jsonl").path, encoding: .utf8)
            .split(separator: "\n").map { $0 + "\n" }
    }

    private func program(_ path: String = todo) throws -> TimelineProgram {
        try TimelineProgram(session: StepSession(journal: InspectedJournal(path: path)), layout: Self.layout)
    }

    private func type(_ text: String, into program: TimelineProgram) throws {
        for character in text { _ = try program.handle(.character(character)) }
        _ = try program.handle(.enter)
    }

    /// At every step of the todo journal, the timeline shows the values `show` prints in the
    /// `step` prompt, the position its prompt shows, and as an atom's previous value the
    /// value it had one step before.
    @Test func theTimelineShowsWhatTheStepPromptShowsAtEveryStep() throws {
        let repl = try StepSession(journal: InspectedJournal(path: Self.todo))
        let timeline = try program()
        var previous = timeline.model.frame
        for step in 1...260 {
            _ = try timeline.handle(.right)
            _ = repl.handle("n")
            let frame = timeline.model.frame
            #expect(frame.position == step)
            #expect(TimelineRender.lines(timeline.model, layout: Self.layout, colored: false)[0].contains(repl.prompt.trimmingCharacters(in: .whitespaces)))
            let shown = repl.handle("s").output.split(separator: "\n", maxSplits: 1).map(String.init)
            let live = frame.atoms.filter { $0.change != .released }
            let expected = live.map { "\($0.name) = \($0.value)" + ($0.marks.isEmpty ? "" : "  (\($0.marks.joined(separator: ", ")))") }
            #expect(shown.count == 2 && shown[1] == expected.joined(separator: "\n"), "step \(step)")
            let cause = try #require(frame.transaction)
            #expect(shown[0].hasSuffix("· \(cause.cause)\(cause.at.map { " @ " + $0 } ?? "")"))
            let before = Dictionary(previous.atoms.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            for atom in frame.atoms where atom.change == .changed || atom.change == .released {
                #expect(atom.previous == before[atom.name], "step \(step): \(atom.name)")
            }
            #expect(Set(frame.atoms.filter { $0.change != .unchanged }.map(\.name)) == Set(cause.changed + cause.created + cause.released))
            previous = frame
        }
    }

    @Test func stepKeysMoveAsNextPrevGotoFirstAndLast() throws {
        let timeline = try program()
        for _ in 0..<5 { _ = try timeline.handle(.right) }
        #expect(timeline.model.frame.position == 5)
        #expect(TimelineRender.lines(timeline.model, layout: Self.layout, colored: false)[0].contains("[5/260]"))
        _ = try timeline.handle(.character("p"))
        _ = try timeline.handle(.left)
        #expect(timeline.model.frame.position == 3)
        _ = try timeline.handle(.pageDown)
        #expect(timeline.model.frame.position == 13)
        _ = try timeline.handle(.pageUp)
        _ = try timeline.handle(.pageUp)
        #expect(timeline.model.frame.position == 0)
        _ = try timeline.handle(.end)
        #expect(timeline.model.frame.position == 260)
        // A closed journal is not followed.
        #expect(!timeline.model.following)
        _ = try timeline.handle(.home)
        #expect(timeline.model.frame.position == 0)
        _ = try timeline.handle(.character("g"))
        #expect(timeline.model.prompt == .goTo)
        try type("last-3", into: timeline)
        #expect(timeline.model.frame.position == 257)
        #expect(timeline.model.message?.text.hasPrefix("[257/260]") == true)
        _ = try timeline.handle(.character("g"))
        try type("nonsense", into: timeline)
        #expect(timeline.model.message?.text.hasPrefix("error: ") == true && timeline.model.message?.isError == true)
        #expect(timeline.model.frame.position == 257)
    }

    /// `/` runs `find` for an atom and `where` for an expression, as the prompt does.
    @Test func slashFindsAsFindAndWhere() throws {
        let repl = try StepSession(journal: InspectedJournal(path: Self.todo))
        let timeline = try program()
        _ = try timeline.handle(.character("/"))
        try type("FilterAtom", into: timeline)
        _ = repl.handle("find FilterAtom")
        #expect(timeline.model.frame.position == repl.position)
        #expect(repl.position > 0)
        _ = try timeline.handle(.character("/"))
        try type("StatsAtom.total == 3", into: timeline)
        _ = repl.handle("where StatsAtom.total == 3")
        #expect(timeline.model.frame.position == repl.position)
        _ = try timeline.handle(.character("/"))
        try type("-b FilterAtom", into: timeline)
        _ = repl.handle("find -b FilterAtom")
        #expect(timeline.model.frame.position == repl.position)
        _ = try timeline.handle(.character("/"))
        try type("NoSuchAtom", into: timeline)
        #expect(timeline.model.message?.text.hasPrefix("error: no atom matches 'NoSuchAtom'") == true)
        // Esc leaves a prompt without running it; Backspace edits.
        _ = try timeline.handle(.character("g"))
        _ = try timeline.handle(.character("9"))
        _ = try timeline.handle(.backspace)
        _ = try timeline.handle(.escape)
        #expect(timeline.model.prompt == nil)
        #expect(timeline.model.frame.position == repl.position)
    }

    @Test func blameValuePanesHelpTabAndQuit() throws {
        let repl = try StepSession(journal: InspectedJournal(path: Self.todo))
        let timeline = try program()
        _ = try timeline.handle(.character("g"))
        try type("40", into: timeline)
        _ = repl.handle("goto 40")
        _ = try timeline.handle(.down)
        let selected = try #require(timeline.model.selectedAtom)
        #expect(selected.name == timeline.model.frame.atoms[1].name)
        _ = try timeline.handle(.character("b"))
        let blame = try #require(timeline.model.overlay)
        #expect(blame.title == "blame \(selected.name) at step 40")
        #expect(blame.lines.joined(separator: "\n") == repl.handle("blame \(selected.name)").output)
        _ = try timeline.handle(.escape)
        #expect(timeline.model.overlay == nil)
        // Enter: the whole value, scrollable, with the one before when this step changed it.
        let changed = try #require(timeline.model.frame.atoms.firstIndex { $0.change == .changed })
        while timeline.model.selected < changed { _ = try timeline.handle(.down) }
        _ = try timeline.handle(.enter)
        let value = try #require(timeline.model.overlay)
        let atom = timeline.model.frame.atoms[changed]
        #expect(value.lines == atom.value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + ["", "before step 40:"] + atom.previous!.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        _ = try timeline.handle(.end)
        #expect(timeline.model.overlay?.scroll == max(0, value.lines.count - Self.layout.overlayRows))
        #expect(try timeline.handle(.character("q")) == false)
        #expect(timeline.model.overlay == nil)
        _ = try timeline.handle(.character("?"))
        #expect(timeline.model.overlay?.lines.joined(separator: "\n") == TimelineProgram.keys)
        _ = try timeline.handle(.escape)
        // Tab: ↓ moves steps in the transactions pane.
        _ = try timeline.handle(.tab)
        #expect(timeline.model.focus == .transactions)
        _ = try timeline.handle(.down)
        #expect(timeline.model.frame.position == 41)
        #expect(try timeline.handle(.interrupt))
        #expect(try timeline.handle(.character("q")))
    }

    /// `End` on a journal still being recorded follows it: appended transactions move the
    /// timeline to the newest; the end line stops it. A journal deleted under it ends it.
    @Test func endFollowsAJournalStillBeingRecorded() throws {
        let directory = try TemporaryDirectory()
        let lines = try Self.counterLines()
        let path = try directory.write("growing.jsonl", lines.prefix(20).joined())
        let timeline = try program(path)
        _ = try timeline.handle(.end)
        let start = timeline.model.frame.position
        #expect(timeline.model.following)
        #expect(start == timeline.model.frame.last)
        #expect(try timeline.tick() == false)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines[20..<(lines.count - 1)].joined().utf8))
        #expect(try timeline.tick())
        #expect(timeline.model.frame.position == 37)
        #expect(timeline.model.frame.position > start)
        #expect(timeline.model.following)
        try handle.write(contentsOf: Data(lines[lines.count - 1].utf8))
        try handle.close()
        #expect(try timeline.tick())
        #expect(!timeline.model.following)
        #expect(timeline.model.message == .notice("the recording has ended at step 37"))
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: InspectorError.self) { try timeline.tick() }
        do { _ = try timeline.tick() } catch { #expect(error.status == .noInput) }
    }
}
