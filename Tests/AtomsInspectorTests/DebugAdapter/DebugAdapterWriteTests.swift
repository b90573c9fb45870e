import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Writing state back: attached to `sample-todo --control`, `setVariable` and
/// `setExpression` write into the program as one new transaction of atoms-inspect's; a value
/// of the wrong type is refused, naming it; a journal (launch) refuses to be written.
@Suite(.timeLimit(.minutes(Patience.minutes(3))))
struct DebugAdapterWriteTests {
    /// The reference of an Atoms-scope variable's child (`TodosAtom` → `[0]`).
    private func reference(_ client: DAPClient, _ path: [String]) async throws -> Int {
        let scopes = try #require(try await client.body("scopes", ["frameId": 1])["scopes"] as? [[String: Any]])
        var reference = try #require(scopes.last?["variablesReference"] as? Int)
        for name in path {
            let variable = try #require(try await client.variables(reference).first { $0["name"] as? String == name })
            reference = try #require(variable["variablesReference"] as? Int)
        }
        return reference
    }

    @Test func setVariableAndSetExpressionWriteIntoTheRunningProgram() async throws {
        let directory = try TemporaryDirectory()
        let program = try await TodoProgram(in: directory)
        #expect(await program.addTodos())
        let client = try await DAPClient.attached(to: program, initialize: ["supportsInvalidatedEvent": true])
        let before = try await program.lastStep()

        // A member of a Codable value: Buy milk (todo 1) done.
        let todo = try await reference(client, ["TodosAtom", "[0]"])
        let set = try await client.request("setVariable", ["variablesReference": todo, "name": "isCompleted", "value": "true"])
        let answered = Date()
        #expect(set["success"] as? Bool == true, "\(set["message"] ?? "")")
        #expect((set["body"] as? [String: Any])?["value"] as? String == "true")
        #expect(await program.waitForState { (($0["TodosAtom"] as? [[String: Any]])?.first?["isCompleted"] as? Bool) == true })
        print("set value visible in the program's output \(String(format: "%.1f", Date().timeIntervalSince(answered) * 1000)) ms after the response")
        _ = try await client.event("invalidated")
        #expect(try await client.position() == before + 1, "one new transaction")
        let frame = try await client.topFrame()
        #expect((frame["name"] as? String)?.hasPrefix("step \(before + 1) · inspector TodosAtom") == true, "\(frame)")
        #expect((frame["name"] as? String)?.contains("by atoms-inspect (a value set)") == true)
        #expect((frame["source"] as? [String: Any])?["path"] as? String == DebugAdapterSessionTests.repository + "/samples/Todo/main.swift")
        let stats = try await client.body("evaluate", ["expression": "StatsAtom.totalCompleted", "context": "watch"])
        #expect(stats["result"] as? String == "2", "dependents recompute, as for the program's own write")

        // An atom, by expression.
        let filter = try await client.body("setExpression", ["expression": "FilterAtom", "value": "\"uncompleted\""])
        #expect(filter["value"] as? String == "\"uncompleted\"")
        #expect(await program.waitForState { $0["FilterAtom"] as? String == "uncompleted" })

        // How soon the program shows a set value: 20 sets, from each response to the
        // program's own output (printed; not asserted, the machine's load decides it).
        var delays: [Double] = []
        for round in 0..<20 {
            let done = round % 2 == 0
            let response = try await client.request("setExpression", ["expression": "TodosAtom[2].isCompleted", "value": String(done)])
            let answered = Date()
            #expect(response["success"] as? Bool == true)
            #expect(await program.waitForState { (($0["TodosAtom"] as? [[String: Any]])?.last?["isCompleted"] as? Bool) == done })
            delays.append(Date().timeIntervalSince(answered) * 1000)
        }
        delays.sort()
        print("set → the program's output after the response, 20 sets: median \(String(format: "%.1f", delays[10])) ms, max \(String(format: "%.1f", delays[19])) ms")

        // A value that does not decode is refused, naming the type; nothing is written.
        let written = try await program.lastStep()
        let refused = try await client.request("setExpression", ["expression": "TodosAtom[1].isCompleted", "value": "\"yes\""])
        #expect(refused["success"] as? Bool == false)
        #expect((refused["message"] as? String)?.contains("does not decode as Array<Todo>, the type of TodosAtom") == true, "\(refused["message"] ?? "")")
        let notJSON = try await client.request("setExpression", ["expression": "FilterAtom", "value": "completed"])
        #expect((notJSON["message"] as? String)?.contains("is not a JSON value") == true)
        let derived = try await client.request("setExpression", ["expression": "StatsAtom.total", "value": "9"])
        #expect((derived["message"] as? String)?.contains("StatsAtom is computed from other atoms") == true, "\(derived["message"] ?? "")")
        #expect(try await program.lastStep() == written)

        // The console takes the attach prompt's command.
        _ = try await client.body("evaluate", ["expression": "set TodosAtom[2].text = \"Call dad\"", "context": "repl"])
        #expect(await program.waitForState { (($0["TodosAtom"] as? [[String: Any]])?.last?["text"] as? String) == "Call dad" })
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()

        // The journal says who wrote.
        try await program.end()
        let journal = try InspectedJournal(path: directory.path("todo.jsonl"))
        let sets = try (before + 1...journal.reader.lastStep).map { try journal.transaction($0, decodingValuesOf: []) }.filter { $0.at?.hasPrefix("atoms-inspect/set:") == true }
        #expect(sets.count == 23 && sets.allSatisfy { $0.cause == "inspector" }, "one inspector transaction per value written, none for those refused")
    }

    @Test func aJournalIsHistoryAndIsNotWritten() async throws {
        let client = try DAPClient(workingDirectory: DebugAdapterSessionTests.repository)
        try await client.launch(DebugAdapterSessionTests.todo)
        #expect(!client.received.contains { String(decoding: $0, as: UTF8.self).contains("\"supportsSetVariable\"") }, "launch does not say it can set")
        _ = try await client.move("next")
        let refused = try await client.request("setExpression", ["expression": "FilterAtom", "value": "\"all\""])
        #expect(refused["success"] as? Bool == false)
        #expect((refused["message"] as? String)?.contains("a journal is history: its values cannot be set — attach to the running program") == true)
        let console = try await client.request("evaluate", ["expression": "set FilterAtom = \"all\"", "context": "repl"])
        #expect((console["message"] as? String)?.contains("a journal is history") == true)
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }
}
