import Foundation
import Testing
import TestSupport

/// `atoms-inspect step` as a person uses it: the real binary in a real pseudo-terminal
/// (tmux), keys sent and the screen read back. The history lives in a temporary
/// `XDG_STATE_HOME`.
@Suite(.serialized, .enabled(if: TerminalSession.tmux != nil && BuiltProducts.executable("atoms-inspect") != nil, "needs tmux and a built atoms-inspect"))
@MainActor
struct StepPromptTerminalTests {
    private static let todo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../samples/journals/todo.jsonl").standardized.path

    private func step(in directory: TemporaryDirectory) throws -> TerminalSession {
        let session = try TerminalSession(
            [BuiltProducts.executable("atoms-inspect")!, "step", Self.todo],
            environment: ["XDG_STATE_HOME": directory.path("state"), "NO_COLOR": "1"], in: directory
        )
        try session.waitFor("[0/260] before the first transaction")
        return session
    }

    @Test func historyIsKeptAcrossSessionsInAPrivateFile() throws {
        let directory = try TemporaryDirectory()
        do {
            let first = try step(in: directory)
            try first.type("goto 7")
            try first.send("Enter")
            try first.waitFor("[7/260] ")
            try first.type("q")
            try first.send("Enter")
            try first.waitFor("[exited 0]")
        }
        let history = directory.path("state/atoms-inspect/history")
        #expect(try String(contentsOfFile: history, encoding: .utf8) == "goto 7\nq\n")
        let mode = try FileManager.default.attributesOfItem(atPath: history)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = try step(in: directory)
        try second.send("Up", "Up")
        try second.waitFor("[0/260] goto 7")
        try second.send("Enter")
        // (capture-pane drops the prompt's trailing space.)
        try second.waitFor("[7/260]", count: 2)
    }

    @Test func enterOnAnEmptyLineRepeatsTheLastMove() throws {
        let directory = try TemporaryDirectory()
        let session = try step(in: directory)
        try session.type("n 2")
        try session.send("Enter")
        try session.waitFor("[2/260] initialize StatsAtom")
        try session.send("Enter")
        try session.waitFor("[4/260] ")
        try session.send("Enter")
        try session.waitFor("[6/260] ")
    }

    @Test func tabCompletesAnAtomName() throws {
        let directory = try TemporaryDirectory()
        let session = try step(in: directory)
        try session.type("goto 40")
        try session.send("Enter")
        try session.waitFor("[40/260] ")
        try session.type("s Todo")
        try session.send("Tab")
        try session.waitFor("[40/260] s TodosAtom")
        try session.send("Enter")
        try session.waitFor("TodosAtom =")
    }

    @Test func ctrlCCancelsTheLineAndKeepsThePosition() throws {
        let directory = try TemporaryDirectory()
        let session = try step(in: directory)
        try session.type("goto 9")
        // As a person would: Ctrl-C once the line shows what was typed (a slow build, such as
        // ThreadSanitizer's, may read the keys later than tmux sends them).
        try session.waitFor("[0/260] goto 9")
        try session.send("C-c")
        try session.type("n")
        try session.send("Enter")
        let screen = try session.waitFor("[1/260] ")
        #expect(!screen.contains("[9/260]"))
        #expect(!screen.contains("[exited"))
    }

    @Test func ctrlDAtAnEmptyPromptLeavesWithStatus0() throws {
        let directory = try TemporaryDirectory()
        let session = try step(in: directory)
        try session.send("C-d")
        try session.waitFor("[exited 0]")
    }
}
