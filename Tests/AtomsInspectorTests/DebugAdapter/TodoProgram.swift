import Foundation
import Testing
import TestSupport

/// `sample-todo --control` as built, with its endpoint in a folder of its own: it prints its
/// state (one JSON line, as its `state` command does) at start and after every change.
struct TodoProgram {
    let process: Subprocess.Running
    let environment: [String: String]

    /// Starts the program and waits until it says where its endpoint is.
    nonisolated(nonsending) init(in directory: TemporaryDirectory) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path("run")
        try FileManager.default.createDirectory(atPath: directory.path("run"), withIntermediateDirectories: true)
        process = try Subprocess.Running(
            try #require(BuiltProducts.executable("sample-todo")),
            ["--journal", directory.path("todo.jsonl"), "--control"],
            environment: environment
        )
        self.environment = environment
        await #expect(process.wait { $1.contains("control endpoint") })
    }

    var pid: Int32 { process.pid }

    /// The state the program printed last.
    var printed: [String: Any]? {
        Self.lastState(process.stdout)
    }

    static func lastState(_ stdout: String) -> [String: Any]? {
        guard let line = stdout.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// Waits until the last state printed satisfies `predicate`; whether it did within 20 s.
    nonisolated(nonsending) func waitForState(_ predicate: @escaping ([String: Any]) -> Bool) async -> Bool {
        await process.wait { stdout, _ in Self.lastState(stdout).map(predicate) ?? false }
    }

    /// Three todos, the second done, the filter on completed.
    nonisolated(nonsending) func addTodos() async -> Bool {
        for line in ["add Buy milk", "add Walk the dog", "add Call mom", "toggle 2", "filter completed"] {
            process.send(line)
        }
        return await waitForState { state in
            state["FilterAtom"] as? String == "completed" && (state["StatsAtom"] as? [String: Any])?["totalCompleted"] as? Int == 1
        }
    }

    /// The program's last step, as its `flush` command says once the journal holds it.
    nonisolated(nonsending) func lastStep() async throws -> Int {
        let before = process.stdout.components(separatedBy: "flushed ").count
        process.send("flush")
        #expect(await process.wait { stdout, _ in stdout.components(separatedBy: "flushed ").count > before && stdout.hasSuffix("\n") })
        let line = try #require(process.stdout.split(separator: "\n").last { $0.hasPrefix("flushed ") })
        return try #require(Int(line.dropFirst(8)))
    }

    /// Ends the program and checks its status.
    nonisolated(nonsending) func end() async throws {
        process.closeInput()
        #expect(try await process.waitForExit() == 0)
    }
}

extension DAPClient {
    /// An attached session to `program`, stopped at the present.
    nonisolated(nonsending) static func attached(to program: TodoProgram, initialize extra: Message = [:]) async throws -> DAPClient {
        let client = try DAPClient(binary: try #require(BuiltProducts.executable("atoms-inspect")), directory: DebugAdapterSessionTests.repository, environment: program.environment)
        var arguments: Message = ["adapterID": "atoms", "linesStartAt1": true]
        arguments.merge(extra) { $1 }
        let capabilities = try await client.body("initialize", arguments)
        #expect(capabilities["supportsSetVariable"] == nil, "said only once attached")
        let attached = try await client.request("attach", ["pid": Int(program.pid), "sourceRoot": DebugAdapterSessionTests.repository])
        #expect(attached["success"] as? Bool == true, "\(attached["message"] ?? "")")
        let said = try await client.event("capabilities")
        #expect(((said["body"] as? Message)?["capabilities"] as? Message)?["supportsSetVariable"] as? Bool == true)
        _ = try await client.event("initialized")
        _ = try await client.body("configurationDone")
        _ = try await client.event("stopped")
        return client
    }

    /// The values of the atoms the todo program prints, as the editor shows them.
    nonisolated(nonsending) func todoValues() async throws -> [String: Any] {
        let scopes = try #require(try await body("scopes", ["frameId": 1])["scopes"] as? [Message])
        let atoms = try #require(scopes.last?["variablesReference"] as? Int)
        var values: [String: Any] = [:]
        for variable in try await variables(atoms) {
            let name = try #require(variable["name"] as? String)
            if ["TodosAtom", "FilterAtom", "FilteredTodosAtom", "StatsAtom"].contains(name) {
                values[name] = try await value(of: variable)
            }
        }
        return values
    }
}
