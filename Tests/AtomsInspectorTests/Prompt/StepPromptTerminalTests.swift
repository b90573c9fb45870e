import Foundation
import Testing
import TestSupport

/// `atoms-inspect step` as a person uses it: the real binary in a real pseudo-terminal
/// (tmux), keys sent and the screen read back. The history lives in a temporary
/// `XDG_STATE_HOME`.
// One at a time: each drives a terminal by its screen with deadlines of seconds, which tmux servers side by side stretch.
@Suite(.serialized, .enabled(if: TerminalSession.tmux != nil && BuiltProducts.executable("atoms-inspect") != nil, "needs tmux and a built atoms-inspect"))
@MainActor
struct StepPromptTerminalTests {
    private static let todo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../samples/journals/todo.jsonl").standardized.path

    private func step(in directory: TemporaryDirectory) async throws -> TerminalSession {
        let session = try await TerminalSession(
            [BuiltProducts.executable("atoms-inspect")!, "step", Self.todo],
            environment: ["XDG_STATE_HOME": directory.path("state"), "NO_COLOR": "1"], in: directory
        )
        try await session.waitFor("[0/260] before the first transaction")
        return session
    }

    @Test func historyIsKeptAcrossSessionsInAPrivateFile() async throws {
        let directory = try TemporaryDirectory()
        do {
            let first = try await step(in: directory)
            try await first.type("goto 7")
            try await first.send("Enter")
            try await first.waitFor("[7/260] ")
            try await first.type("q")
            try await first.send("Enter")
            try await first.waitFor("[exited 0]")
        }
        let history = directory.path("state/atoms-inspect/history")
        #expect(try String(contentsOfFile: history, encoding: .utf8) == "goto 7\nq\n")
        let mode = try FileManager.default.attributesOfItem(atPath: history)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = try await step(in: directory)
        try await second.send("Up", "Up")
        try await second.waitFor("[0/260] goto 7")
        try await second.send("Enter")
        // (capture-pane drops the prompt's trailing space.)
        try await second.waitFor("[7/260]", count: 2)
    }

    @Test func enterOnAnEmptyLineRepeatsTheLastMove() async throws {
        let directory = try TemporaryDirectory()
        let session = try await step(in: directory)
        try await session.type("n 2")
        try await session.send("Enter")
        try await session.waitFor("[2/260] initialize StatsAtom")
        try await session.send("Enter")
        try await session.waitFor("[4/260] ")
        try await session.send("Enter")
        try await session.waitFor("[6/260] ")
    }

    @Test func tabCompletesAnAtomName() async throws {
        let directory = try TemporaryDirectory()
        let session = try await step(in: directory)
        try await session.type("goto 40")
        try await session.send("Enter")
        try await session.waitFor("[40/260] ")
        try await session.type("s Todo")
        try await session.send("Tab")
        try await session.waitFor("[40/260] s TodosAtom")
        try await session.send("Enter")
        try await session.waitFor("TodosAtom =")
    }

    @Test func ctrlCCancelsTheLineAndKeepsThePosition() async throws {
        let directory = try TemporaryDirectory()
        let session = try await step(in: directory)
        try await session.type("goto 9")
        // As a person would: Ctrl-C once the line shows what was typed (a slow build, such as
        // ThreadSanitizer's, may read the keys later than tmux sends them).
        try await session.waitFor("[0/260] goto 9")
        try await session.send("C-c")
        try await session.type("n")
        try await session.send("Enter")
        let screen = try await session.waitFor("[1/260] ")
        #expect(!screen.contains("[9/260]"))
        #expect(!screen.contains("[exited"))
    }

    @Test func ctrlDAtAnEmptyPromptLeavesWithStatus0() async throws {
        let directory = try TemporaryDirectory()
        let session = try await step(in: directory)
        try await session.send("C-d")
        try await session.waitFor("[exited 0]")
    }
}
