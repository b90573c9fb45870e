import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// The adapter driven over pipes as an editor drives it, on the shipped todo journal: frames
/// against `log --json`, variables against `show --json`, every message against the schema.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugAdapterSessionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized.path
    static let todo = "samples/journals/todo.jsonl"

    /// `log --json`'s entries, as the CLI prints them.
    static func log(_ journal: String = todo, atom: String? = nil, writes: Bool = false) throws -> [[String: Any]] {
        let opened = try InspectedJournal(path: repository + "/" + journal)
        let text = try LogCommand.run(opened, options: .init(atom: atom, writes: writes, json: true))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// `show --json` at a step.
    static func show(at step: Int) throws -> [String: Any] {
        let opened = try InspectedJournal(path: repository + "/" + todo)
        let text = try ShowCommand.run(opened, at: .number(step), json: true)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func everyStepsFrameIsItsWriteSiteAsAFileOnDisk() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        let entry = try await client.launch(Self.todo)
        #expect((entry["body"] as? [String: Any])?["reason"] as? String == "entry")
        let first = try await client.topFrame()
        #expect(first["name"] as? String == "step 0 · before the first transaction")
        #expect(first["source"] == nil)

        let log = try Self.log()
        for logged in log {
            let stopped = try await client.move("next")
            #expect(stopped["reason"] as? String == "step")
            let frame = try await client.topFrame()
            let step = try #require(logged["step"] as? Int)
            let name = try #require(frame["name"] as? String)
            #expect(name.hasPrefix("step \(step) · \(logged["cause"] as? String ?? "")"), "\(name)")
            let site = try #require(logged["at"] as? String)
            let (fileID, line) = try #require(WriteSiteResolver.split(site))
            // sample_todo is the target sample-todo, whose path is samples/Todo.
            #expect(fileID == "sample_todo/main.swift")
            let source = try #require(frame["source"] as? [String: Any])
            #expect(source["path"] as? String == Self.repository + "/samples/Todo/main.swift")
            #expect(frame["line"] as? Int == line)
        }
        // At the last step `next` stays stopped: no terminated event, and stepBack works.
        let atEnd = try await client.move("next")
        #expect((atEnd["text"] as? String)?.contains("the last step") == true)
        #expect(try await client.position() == log.count)
        #expect(client.takeEvents().allSatisfy { $0["event"] as? String != "terminated" })
        _ = try await client.move("stepBack")
        #expect(try await client.position() == log.count - 1)
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func variablesAreTheValuesShowJSONPrints() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(Self.todo)
        var generator = SeededGenerator(seed: 42)
        let steps = [1, 2, 40, 259, 260] + (0..<6).map { _ in Int.random(in: 3...258, using: &generator) }
        for step in steps {
            let evaluated = try await client.body("evaluate", ["expression": "goto \(step)", "context": "repl"])
            #expect((evaluated["result"] as? String)?.hasPrefix("[\(step)/260]") == true)
            #expect(await (try client.event("stopped")["body"] as? [String: Any])?["reason"] as? String == "goto")
            #expect(try await client.position() == step)

            let shown = try Self.show(at: step)
            let scopes = try #require(try await client.body("scopes", ["frameId": step])["scopes"] as? [[String: Any]])
            #expect(scopes.map { $0["name"] as? String } == ["Changed at step \(step)", "Atoms"])
            let atoms = try await client.variables(try #require(scopes[1]["variablesReference"] as? Int))
            let expected = try #require(shown["atoms"] as? [[String: Any]])
            #expect(atoms.map { $0["name"] as? String } == expected.map { $0["atom"] as? String })
            for (variable, atom) in zip(atoms, expected) {
                #expect(variable["type"] as? String == atom["type"] as? String)
                let value = try await client.value(of: variable)
                #expect(NSDictionary(dictionary: ["v": value]).isEqual(to: ["v": atom["value"] ?? NSNull()]), "\(atom["atom"] ?? "") at step \(step)")
            }
            // The changed scope holds the atoms the step's transaction wrote.
            let changed = try await client.variables(try #require(scopes[0]["variablesReference"] as? Int))
            let logged = try #require(try Self.log().first { $0["step"] as? Int == step })
            let written = Set((logged["changed"] as? [String] ?? []) + (logged["created"] as? [String] ?? []))
            #expect(Set(changed.compactMap { $0["name"] as? String }) == written)
        }
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func watchAndHoverReadPathsAndTheConsoleIsTheStepPrompt() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(Self.todo)
        _ = try await client.body("evaluate", ["expression": "goto 40", "context": "repl"])
        _ = try await client.event("stopped")
        let shown = try Self.show(at: 40)
        let todos = try #require((shown["atoms"] as? [[String: Any]])?.first { $0["atom"] as? String == "TodosAtom" }?["value"] as? [[String: Any]])
        let text = try #require(todos[0]["text"] as? String)
        let watched = try await client.body("evaluate", ["expression": "TodosAtom[0].text", "context": "watch", "frameId": 40])
        #expect(watched["result"] as? String == "\"\(text)\"")
        let hovered = try await client.body("evaluate", ["expression": "TodosAtom", "context": "hover", "frameId": 40])
        let reference = try #require(hovered["variablesReference"] as? Int)
        #expect(reference > 0)
        #expect(try await client.variables(reference).count == todos.count)
        let condition = try await client.body("evaluate", ["expression": "TodosAtom.count == \(todos.count)", "context": "watch"])
        #expect(condition["result"] as? String == "true")

        let unknown = try await client.request("evaluate", ["expression": "NoSuchAtom.x", "context": "watch"])
        #expect(unknown["success"] as? Bool == false)
        #expect((unknown["message"] as? String)?.contains("no atom in the journal is named 'NoSuchAtom'") == true)
        // The console: the step prompt's commands, errors as failed responses.
        let help = try await client.body("evaluate", ["expression": "help", "context": "repl"])
        #expect(help["result"] as? String == StepSession.help)
        let blame = try await client.body("evaluate", ["expression": "blame TodosAtom", "context": "repl"])
        #expect((blame["result"] as? String)?.contains("TodosAtom") == true)
        let bad = try await client.request("evaluate", ["expression": "fly away", "context": "repl"])
        #expect(bad["success"] as? Bool == false)
        #expect((bad["message"] as? String)?.contains("unknown command 'fly'") == true)
        let found = try await client.body("evaluate", ["expression": "where -b StatsAtom.total == 1", "context": "repl"])
        #expect((found["result"] as? String)?.hasPrefix("[") == true)
        _ = try await client.event("stopped")
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }
}
