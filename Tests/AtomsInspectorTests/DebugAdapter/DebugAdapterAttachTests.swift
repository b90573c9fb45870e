import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `attach` to `sample-numpad --control`: moving back moves the running program; continue
/// and disconnect return it to the present.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugAdapterAttachTests {
    /// A numpad with its endpoint in a folder of its own (`XDG_RUNTIME_DIR`).
    private func startNumpad(in directory: TemporaryDirectory) async throws -> (Subprocess.Running, [String: String]) {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path("run")
        try FileManager.default.createDirectory(atPath: directory.path("run"), withIntermediateDirectories: true)
        let numpad = try Subprocess.Running(
            try #require(BuiltProducts.executable("sample-numpad")),
            ["--journal", directory.path("j.jsonl"), "--control"],
            environment: environment
        )
        await #expect(numpad.wait { $1.contains("control endpoint") })
        return (numpad, environment)
    }

    @Test func steppingBackMovesTheProgramAndContinueReturnsIt() async throws {
        let directory = try TemporaryDirectory()
        let (numpad, environment) = try await startNumpad(in: directory)
        for digits in ["4", "8", "15"] { numpad.send(digits) }
        #expect(await numpad.wait { stdout, _ in stdout.contains("display 4,815\n") })

        // Steps 1–2 watch the atoms, 3 types 4, 4 types 8, 5 and 6 type 1 and 5.
        let client = try DAPClient(binary: try #require(BuiltProducts.executable("atoms-inspect")), directory: DebugAdapterSessionTests.repository, environment: environment)
        _ = try await client.body("initialize", ["adapterID": "atoms"])
        // A pid as a string, as VS Code's ${command:pickProcess} gives it.
        let attached = try await client.request("attach", ["pid": String(numpad.pid)])
        #expect(attached["success"] as? Bool == true, "\(attached["message"] ?? "")")
        _ = try await client.event("initialized")
        _ = try await client.body("configurationDone")
        _ = try await client.event("stopped")
        #expect(try await client.position() == 6, "the session starts at the present")

        _ = try await client.move("stepBack")
        _ = try await client.move("stepBack")
        _ = try await client.move("stepBack")
        #expect(try await client.position() == 3)
        #expect(await numpad.wait { stdout, _ in stdout.hasSuffix("display 4\n") }, "\(numpad.stdout)")
        let input = try await client.body("evaluate", ["expression": "InputAtom", "context": "watch"])
        #expect(input["result"] as? String == "\"4\"")

        let back = try await client.move("continue")
        #expect((back["text"] as? String)?.contains("the program is back in the present") == true)
        #expect(await numpad.wait { stdout, _ in stdout.hasSuffix("display 4\ndisplay 4,815\n") }, "\(numpad.stdout)")

        // Back again, then disconnect: the program is left in the present.
        _ = try await client.body("evaluate", ["expression": "goto 4", "context": "repl"])
        #expect(await numpad.wait { stdout, _ in stdout.hasSuffix("display 48\n") }, "\(numpad.stdout)")
        #expect(try await client.disconnect() == 0)
        #expect(await numpad.wait { stdout, _ in stdout.hasSuffix("display 48\ndisplay 4,815\n") }, "\(numpad.stdout)")
        try await client.validateAgainstSchema()

        numpad.closeInput()
        #expect(try await numpad.waitForExit() == 0)
    }

    @Test func aProgramThatExitsEndsTheSessionWithTerminated() async throws {
        let directory = try TemporaryDirectory()
        let (numpad, environment) = try await startNumpad(in: directory)
        let client = try DAPClient(binary: try #require(BuiltProducts.executable("atoms-inspect")), directory: DebugAdapterSessionTests.repository, environment: environment)
        _ = try await client.body("initialize", ["adapterID": "atoms"])
        _ = try await client.body("attach", ["socket": try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path("run/atoms-control")).first.map { directory.path("run/atoms-control/" + $0) })])
        _ = try await client.body("configurationDone")
        _ = try await client.event("stopped")
        numpad.closeInput()
        #expect(try await numpad.waitForExit() == 0)
        // Told without a request: the adapter looks for the program's news while idle.
        _ = try await client.event("terminated")
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }
}
