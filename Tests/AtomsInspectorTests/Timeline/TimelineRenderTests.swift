@testable import AtomsInspector
import AtomsJournal
import Foundation
import Testing

/// The timeline's screen as a pure function of the model and the size.
struct TimelineRenderTests {
    private func program(at step: Int, columns: Int = 80, rows: Int = 24) throws -> TimelineProgram {
        let session = try StepSession(journal: InspectedJournal(path: TimelineProgramTests.todo), at: .number(step))
        return try TimelineProgram(session: session, layout: TimelineLayout(columns: columns, rows: rows))
    }

    /// The todo journal at step 6 on 80×24 without colours: the screen, as the README shows it.
    @Test func theScreenAtAStep() throws {
        let timeline = try program(at: 6)
        let screen = TimelineRender.lines(timeline.model, layout: TimelineProgramTests.layout, colored: false)
        #expect(screen.joined(separator: "\n") == Self.step6)
    }

    static let step6 = """
         atoms-inspect  todo.jsonl  [6/260]  t +0.004s
         set  @ sample_todo/main.swift:33  TodosAtom, StatsAtom, FilteredTodosAtom
        ─  Transactions ────────────────────────────────────────────────────────────────
              3     0.003s  initialize    -  @ sample_todo/main.swift:15
              4     0.003s  initialize    +NextTodoIDAtom  @ sample_todo/main.swift:16
              5     0.004s  set           NextTodoIDAtom  @ sample_todo/main.swift:32
        ▶     6     0.004s  set           TodosAtom, StatsAtom, FilteredTodosAtom  @ sa…
              7     0.004s  set           NextTodoIDAtom  @ sample_todo/main.swift:32
              8     0.004s  set           TodosAtom, StatsAtom, FilteredTodosAtom  @ sa…
        ─▸ Values at step 6 · 5 live atoms · * changed (was …) + created - released ────
        ›  FilterAtom = "all"
         * FilteredTodosAtom = [{"id": 1, "isCompleted": false, "text": "Water …  was []
           NextTodoIDAtom = 2
         * StatsAtom = {"percentCompleted": 0, "total": 1, "…  was {"percentCompleted":…
         * TodosAtom = [{"id": 1, "isCompleted": false, "text": "Water plants"}]  was []








        q quit  ? help  ←→ step  g go to  / find  b blame  Enter value  Tab pane  PgUp/…
        """

    /// Every size from tiny to wide, at the first, a middle and the last step, with each
    /// overlay and prompt: exactly one line per row, none wider than the screen, and no escape
    /// codes without colours.
    @Test(arguments: [(80, 24), (81, 25), (40, 12), (100, 30), (200, 60), (20, 5), (1, 1)])
    func everyLineFitsEverySize(columns: Int, rows: Int) throws {
        let layout = TimelineLayout(columns: columns, rows: rows)
        for step in [0, 6, 260] {
            let timeline = try program(at: step, columns: columns, rows: rows)
            var models = [timeline.model]
            for keys in [[TimelineKey.enter], [.escape, .character("?")], [.escape, .character("b")], [.escape, .character("/"), .character("x")]] {
                for key in keys { _ = try timeline.handle(key) }
                models.append(timeline.model)
            }
            for model in models {
                let plain = TimelineRender.lines(model, layout: layout, colored: false)
                #expect(plain.count == rows)
                for line in plain {
                    #expect(ScreenText.width(of: line) <= columns, "\(columns)×\(rows) step \(step): \(line)")
                    #expect(!line.contains("\u{1B}"))
                }
                let colored = TimelineRender.lines(model, layout: layout, colored: true)
                #expect(colored.count == rows)
                #expect(colored.map { $0.replacing(/\u{1B}\[[0-9;]*m/, with: "") } == plain)
            }
        }
    }

    @Test func coloursMarkTheCurrentTransactionAndTheSelectedAtom() throws {
        let timeline = try program(at: 6)
        let colored = TimelineRender.lines(timeline.model, layout: TimelineProgramTests.layout, colored: true)
        #expect(colored.contains { $0.hasPrefix("\u{1B}[7m▶     6") })
        #expect(colored.contains { $0.hasPrefix("\u{1B}[7m›") })
    }

    /// A recorded string with escape codes shows as text, and values join onto one line.
    @Test func journalTextNeverReachesTheTerminalAsCodes() throws {
        var frame = try program(at: 6).model.frame
        frame.atoms = [.init(name: "Evil\u{1B}]0;owned\u{7}", value: "\"\u{1B}[2J\"", marks: [], change: .changed, previous: "[\n  1,\n  {\n    \"a\": 2\n  }\n]")]
        let screen = TimelineRender.lines(TimelineModel(frame: frame), layout: TimelineProgramTests.layout, colored: false)
        #expect(screen.allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\u{7}") })
        #expect(screen.contains { $0.contains("Evil?]0;owned? = \"?[2J\"  was [1, {\"a\": 2}]") })
    }
}
