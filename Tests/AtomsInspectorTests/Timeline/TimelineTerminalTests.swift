import AtomsInspector
import Foundation
import Testing
import TestSupport

/// `step --tui` as a person uses it: the built binary in a real pseudo-terminal (tmux),
/// driven with keys, its screen read back, the terminal checked after it leaves.
@Suite(.enabled(if: TmuxPane.executable != nil, "tmux is not installed (apt-get install tmux; CI installs it)"))
struct TimelineTerminalTests {
    private static let todo = TimelineProgramTests.todo

    /// A pane running `step --tui` on `journal`, recording `stty -a` before and after, the
    /// timeline's pid, stderr and exit status in its folder.
    private func pane(_ journal: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) async throws -> TmuxPane {
        let inspect = try #require(BuiltProducts.executable("atoms-inspect"))
        return try await TmuxPane("""
            ulimit -c 0
            stty -a > stty-before
            sh -c 'echo $$ > pid; exec "$0" "$@"' '\(inspect)' step --tui '\(journal)' 2> stderr
            echo "exit=$?" > status.tmp
            stty -a > stty-after
            mv status.tmp status
            exec sleep 600
            """, columns: columns, rows: rows, environment: environment)
    }

    /// Whether the pane is back as it was: the same `stty -a`, the main screen, the cursor on.
    private func expectRestored(_ pane: TmuxPane) async throws {
        let before = try String(contentsOfFile: pane.directory.path("stty-before"), encoding: .utf8)
        let after = try String(contentsOfFile: pane.directory.path("stty-after"), encoding: .utf8)
        #expect(before == after)
        #expect(!before.isEmpty)
        await #expect(try pane.format("#{alternate_on}") == "0")
        await #expect(try pane.format("#{cursor_flag}") == "1")
    }

    @Test func fiveStepsShowTheirPositionAndQLeavesTheTerminalAsItWas() async throws {
        let pane = try await pane(Self.todo)
        defer { pane.close() }
        try await pane.waitForScreen("[0/260]") { $0.contains("[0/260]") }
        #expect(try await pane.format("#{alternate_on}") == "1")
        try await pane.send("Right", "Right", "n", "Right", "Right")
        let screen = try await pane.waitForScreen("[5/260]") { $0.contains("[5/260]") }
        #expect(screen.contains("▶     5"))
        #expect(screen.contains(" * NextTodoIDAtom = 2  was 1"))
        try await pane.send("PageDown")
        try await pane.waitForScreen("[15/260]") { $0.contains("[15/260]") }
        try await pane.send("Home")
        try await pane.waitForScreen("[0/260]") { $0.contains("[0/260]") }
        try await pane.send("End")
        try await pane.waitForScreen("[260/260]") { $0.contains("[260/260]") }
        try await pane.send("q")
        #expect(try await pane.waitForFile("status") == "exit=0\n")
        try await expectRestored(pane)
    }

    /// Ctrl-C quits as q does; SIGTERM, SIGHUP and SIGSEGV put the terminal back, then end
    /// the process by the signal, as it would have ended.
    @Test(arguments: [("C-c", 0), ("TERM", 128 + SIGTERM), ("HUP", 128 + SIGHUP), ("SEGV", 128 + SIGSEGV)])
    func everyWayOutRestoresTheTerminal(way: String, status: Int32) async throws {
        let pane = try await pane(Self.todo)
        defer { pane.close() }
        try await pane.waitForScreen("[0/260]") { $0.contains("[0/260]") }
        try await pane.send("Right")
        try await pane.waitForScreen("[1/260]") { $0.contains("[1/260]") }
        if way == "C-c" {
            try await pane.send("C-c")
        } else {
            let pid = try #require(Int32(try await pane.waitForFile("pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            let signals = ["TERM": SIGTERM, "HUP": SIGHUP, "SEGV": SIGSEGV]
            kill(pid, signals[way]!)
        }
        #expect(try await pane.waitForFile("status", seconds: 20) == "exit=\(status)\n")
        try await expectRestored(pane)
    }

    /// A journal deleted while shown ends the timeline with exit 66 and one line on stderr.
    @Test func aJournalThatVanishesEndsItPolitely() async throws {
        let directory = try TemporaryDirectory()
        let journal = directory.path("todo.jsonl")
        try FileManager.default.copyItem(atPath: Self.todo, toPath: journal)
        let pane = try await pane(journal)
        defer { pane.close() }
        try await pane.waitForScreen("[0/260]") { $0.contains("[0/260]") }
        try FileManager.default.removeItem(atPath: journal)
        #expect(try await pane.waitForFile("status") == "exit=66\n")
        let stderr = try String(contentsOfFile: pane.directory.path("stderr"), encoding: .utf8)
        #expect(stderr == "atoms-inspect: \(journal): error: the journal was deleted or moved while the timeline showed it — run step --tui again when it is back\n")
        try await expectRestored(pane)
    }

    /// End on a journal still being written follows it: lines appended to it appear.
    @Test func endFollowsTransactionsAsTheyAreWritten() async throws {
        let directory = try TemporaryDirectory()
        let lines = try TimelineProgramTests.counterLines()
        let journal = try directory.write("growing.jsonl", lines.prefix(20).joined())
        let pane = try await pane(journal)
        defer { pane.close() }
        try await pane.waitForScreen("still being recorded") { $0.contains("(still being recorded") }
        try await pane.send("End")
        let start = try await pane.waitForScreen("following") { $0.contains("following the journal") }
        #expect(!start.contains("[37/"))
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        defer { try? handle.close() }
        try handle.seekToEnd()
        for line in lines[20..<(lines.count - 1)] {
            try handle.write(contentsOf: Data(line.utf8))
        }
        let grown = try await pane.waitForScreen("[37/37]") { $0.contains("[37/37]") }
        #expect(grown.contains("▶    37"))
        try handle.write(contentsOf: Data(lines[lines.count - 1].utf8))
        try await pane.waitForScreen("the end line") { $0.contains("the recording has ended at step 37") }
        try await pane.send("q")
        #expect(try await pane.waitForFile("status") == "exit=0\n")
    }

    /// A resize redraws at the new size: the header on the first row, the keys on the last,
    /// nothing wider than the pane.
    @Test func aResizeRedrawsToFit() async throws {
        let pane = try await pane(Self.todo)
        defer { pane.close() }
        try await pane.waitForScreen("[0/260]") { $0.contains("[0/260]") }
        try await pane.send("Right")
        for (columns, rows) in [(120, 40), (80, 24), (100, 30)] {
            try await pane.tmux(["resize-window", "-t", "0", "-x", String(columns), "-y", String(rows)])
            try await pane.waitForScreen("a \(columns)×\(rows) screen") { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                return lines.count == rows && lines.first?.contains("[1/260]") == true && lines.last?.hasPrefix("q quit") == true
                    && lines.contains { $0.hasPrefix("─▸ Values at step 1") }
                    && lines.allSatisfy { $0.count <= columns }
                    && lines.filter { $0.hasPrefix("q quit") }.count == 1
            }
        }
        try await pane.send("q")
        #expect(try await pane.waitForFile("status") == "exit=0\n")
    }

    /// With NO_COLOR the screen holds no colour or attribute codes, and marks say what they
    /// would; without it, the current transaction is drawn in reverse video.
    @Test func noColorGivesMarksInsteadOfColours() async throws {
        let plain = try await pane(Self.todo, environment: ["NO_COLOR": "1"])
        defer { plain.close() }
        let colored = try await pane(Self.todo)
        defer { colored.close() }
        for pane in [plain, colored] {
            try await pane.waitForScreen("[0/260]") { $0.contains("[0/260]") }
            try await pane.send("Right", "Right")
        }
        let screen = try await plain.waitForScreen("[2/260]", escapes: true) { $0.contains("[2/260]") }
        #expect(!screen.contains("\u{1B}["))
        #expect(screen.contains("▶     2"))
        #expect(screen.contains("─▸ Values"))
        #expect(screen.contains("\n›"))
        let painted = try await colored.waitForScreen("[2/260]", escapes: true) { $0.contains("[2/260]") }
        #expect(painted.contains("\u{1B}[7m▶     2"))
    }

    /// Not on a terminal, it refuses, and says what to use instead.
    @Test func withoutATerminalItPointsToStepForScripts() async throws {
        let run = try await BuiltProducts.run("atoms-inspect", ["step", "--tui", Self.todo])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "atoms-inspect: error: step --tui draws on a terminal, and standard output is not one — use step without --tui for scripts\n")
    }
}
