import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Breakpoints on the todo journal: where `continue` and `reverseContinue` stop, against
/// `log --json` (write sites, atoms changed) and `find --where`.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugAdapterBreakpointTests {
    private static let repository = DebugAdapterSessionTests.repository
    private static let todo = DebugAdapterSessionTests.todo
    private static let main = repository + "/samples/Todo/main.swift"

    /// Every stop of `continue` (or `reverseContinue`) until it stops at the end.
    private func stops(_ client: DAPClient, _ command: String, reason: String) async throws -> [Int] {
        var steps: [Int] = []
        while true {
            let stopped = try await client.move(command)
            guard stopped["reason"] as? String == reason else {
                #expect(stopped["reason"] as? String == "step")
                return steps
            }
            #expect((stopped["hitBreakpointIds"] as? [Int])?.isEmpty == false)
            await steps.append(try client.position())
        }
    }

    @Test func lineBreakpointsStopAtEveryStepWrittenThereBothWays() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        var answer: [[String: Any]] = []
        let entry = try await client.launch(Self.todo, stopOnEntry: false) { client in
            answer = try #require(try await client.body("setBreakpoints", [
                "source": ["path": Self.main], "breakpoints": [["line": 39], ["line": 2]],
            ])["breakpoints"] as? [[String: Any]])
        }
        #expect(answer.count == 2)
        #expect(answer[0]["verified"] as? Bool == true)
        #expect(answer[1]["verified"] as? Bool == false)
        #expect((answer[1]["message"] as? String)?.contains("no step of the journal was written at line 2 — lines with writes: 13, 14, 15, 16, 32, 33, 36, 39, 44") == true)

        let expected = try DebugAdapterSessionTests.log().filter { $0["at"] as? String == "sample_todo/main.swift:39" }.compactMap { $0["step"] as? Int }
        #expect(expected.count == 26)
        // Without stopOnEntry, the session runs to the first hit.
        #expect((entry["body"] as? [String: Any])?["reason"] as? String == "breakpoint")
        #expect(try await client.position() == expected[0])
        let forward = try await [expected[0]] + stops(client, "continue", reason: "breakpoint")
        #expect(forward == expected)
        #expect(try await client.position() == 260, "no hit after the last: continue stops at the last step")
        let backward = try await stops(client, "reverseContinue", reason: "breakpoint")
        #expect(backward == expected.reversed())
        #expect(try await client.position() == 0)
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func conditionsAreTheWhereLanguageHoldingAfterTheTransaction() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(Self.todo) { client in
            let answer = try #require(try await client.body("setBreakpoints", [
                "source": ["path": Self.main],
                "breakpoints": [["line": 36, "condition": "StatsAtom.totalCompleted >= 2"], ["line": 33, "condition": "StatsAtom.total >"]],
            ])["breakpoints"] as? [[String: Any]])
            #expect(answer.map { $0["verified"] as? Bool } == [true, false])
            #expect((answer[1]["message"] as? String)?.hasPrefix("the condition is not a where expression") == true)
        }
        let held = try FindCommand.find(InspectedJournal(path: Self.repository + "/" + Self.todo), where: "StatsAtom.totalCompleted >= 2", mode: .all)
        let line36 = Set(try DebugAdapterSessionTests.log().filter { $0["at"] as? String == "sample_todo/main.swift:36" }.compactMap { $0["step"] as? Int })
        let expected = held.steps.map(\.step).filter(line36.contains)
        #expect(!expected.isEmpty)
        #expect(try await stops(client, "continue", reason: "breakpoint") == expected)
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func dataAndFunctionBreakpointsStopWhereTheAtomChanges() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(Self.todo)
        _ = try await client.move("next")
        let scopes = try #require(try await client.body("scopes", ["frameId": 1])["scopes"] as? [[String: Any]])
        let atoms = try #require(scopes[1]["variablesReference"] as? Int)
        let info = try await client.body("dataBreakpointInfo", ["variablesReference": atoms, "name": "FilterAtom"])
        #expect(info["dataId"] as? String == "FilterAtom")
        #expect(info["accessTypes"] as? [String] == ["write"])
        let member = try await client.body("dataBreakpointInfo", ["variablesReference": 999, "name": "text"])
        #expect(member["dataId"] is NSNull)
        let set = try #require(try await client.body("setDataBreakpoints", ["breakpoints": [["dataId": "FilterAtom"]]])["breakpoints"] as? [[String: Any]])
        #expect(set.first?["verified"] as? Bool == true)

        // Where it changed, not where it was written an equal value (`FilterAtom=` in `log`).
        let entries = try DebugAdapterSessionTests.log(atom: "FilterAtom", writes: true)
        let changes = entries.filter { ($0["changed"] as? [String])?.contains("FilterAtom") == true }.compactMap { $0["step"] as? Int }.filter { $0 > 1 }
        #expect(!changes.isEmpty)
        #expect(entries.contains { ($0["equal"] as? [String])?.contains("FilterAtom") == true }, "the journal writes FilterAtom an equal value")
        #expect(try await stops(client, "continue", reason: "data breakpoint") == changes)
        _ = try await client.body("setDataBreakpoints", ["breakpoints": [[String: Any]]()])

        // A function breakpoint names an atom.
        let function = try #require(try await client.body("setFunctionBreakpoints", ["breakpoints": [["name": "NextTodoIDAtom"], ["name": "Nothing"]]])["breakpoints"] as? [[String: Any]])
        #expect(function.map { $0["verified"] as? Bool } == [true, false])
        #expect((function[1]["message"] as? String)?.contains("no atom matches 'Nothing'") == true)
        let writes = try DebugAdapterSessionTests.log(atom: "NextTodoIDAtom").compactMap { $0["step"] as? Int }
        #expect(try await stops(client, "reverseContinue", reason: "function breakpoint") == writes.reversed())
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func gotoTargetsAreTheStepsWrittenAtALine() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(Self.todo)
        let targets = try #require(try await client.body("gotoTargets", ["source": ["path": Self.main], "line": 44])["targets"] as? [[String: Any]])
        let expected = try DebugAdapterSessionTests.log().filter { $0["at"] as? String == "sample_todo/main.swift:44" }.compactMap { $0["step"] as? Int }
        #expect(targets.compactMap { $0["id"] as? Int } == expected)
        _ = try await client.body("goto", ["threadId": 1, "targetId": expected[3]])
        let stopped = try await client.event("stopped")
        #expect((stopped["body"] as? [String: Any])?["reason"] as? String == "goto")
        #expect(try await client.position() == expected[3])
        #expect(try await client.topFrame()["line"] as? Int == 44)
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }
}
