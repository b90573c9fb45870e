import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// The step prompt's parts without a terminal: what Enter repeats, what Tab offers, how the
/// history file is kept, and that piped input writes no history.
struct PromptPartsTests {
    @Test func enterRepeatsOnlyMovesAndSearches() {
        var repeats = CommandRepeat()
        #expect(repeats.resolve("") == "")
        #expect(repeats.resolve("n 3") == "n 3")
        #expect(repeats.resolve("") == "n 3")
        #expect(repeats.resolve("  ") == "n 3")
        #expect(repeats.resolve("w StatsAtom.total > 2") == "w StatsAtom.total > 2")
        #expect(repeats.resolve("") == "w StatsAtom.total > 2")
        #expect(repeats.resolve("show") == "show")
        #expect(repeats.resolve("") == "")
    }

    @Test func tabOffersCommandsAtomsAndLast() {
        let completion = StepCompletion(atomNames: ["FilterAtom", "StatsAtom", "TodosAtom", "TodoDraftAtom"])
        #expect(completion.candidates(before: "", word: "g") == ["goto", "graph"])
        #expect(completion.candidates(before: "s ", word: "Todo") == ["TodosAtom", "TodoDraftAtom"])
        #expect(completion.candidates(before: "where ", word: "*Filter") == ["FilterAtom"])
        #expect(completion.candidates(before: "find -b ", word: "Stats") == ["StatsAtom"])
        #expect(completion.candidates(before: "goto ", word: "la") == ["last"])
        #expect(completion.candidates(before: "n ", word: "1").isEmpty)
        #expect(LineEditor.commonPrefix(["TodosAtom", "TodoDraftAtom"]) == "Todo")
        #expect(completion.candidates(before: "", word: "c") == ["cost"])
        #expect(completion.candidates(before: "", word: "li").isEmpty)
        // attach's prompt adds its own command.
        let attach = StepCompletion(atomNames: [], runningProgram: true)
        #expect(attach.candidates(before: "", word: "l") == ["last", "live", "log"])
    }

    @Test func theHistoryIsBoundedPrivateAndSkipsRepeats() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state/atoms-inspect/history")
        var history = PromptHistory(path: path)
        #expect(try history.add("n"))
        #expect(try !history.add("n"))
        #expect(try !history.add("   "))
        for index in 0..<(PromptHistory.limit + 5) {
            try history.add("goto \(index)")
        }
        let reread = PromptHistory(path: path)
        #expect(reread.lines.count == PromptHistory.limit)
        #expect(reread.lines.last == "goto \(PromptHistory.limit + 4)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(PromptHistory.path(environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"]) == "/x/atoms-inspect/history")
        #expect(PromptHistory.path(environment: ["HOME": "/h"]) == "/h/.local/state/atoms-inspect/history")
        #expect(PromptHistory.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/atoms-inspect/history")
    }

    @Test func pipedInputWritesNoHistoryAndNoPrompt() async throws {
        let directory = try TemporaryDirectory()
        let journal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../samples/journals/todo.jsonl").standardized.path
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory.path("state")
        let run = try await BuiltProducts.run("atoms-inspect", ["step", journal], stdin: "n\n\nq\n", environment: environment)
        #expect(run.status == 0)
        // The empty line repeats nothing when piped.
        #expect(run.stdout.split(separator: "\n").count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.path("state")))
    }
}
