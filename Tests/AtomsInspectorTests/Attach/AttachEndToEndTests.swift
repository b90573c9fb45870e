import Foundation
import Testing
import TestSupport

/// `sample-numpad --control` and `atoms-inspect attach`, as built: the README's time-travel
/// tour, run with every wait limited.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct AttachEndToEndTests {
    /// A numpad with its endpoint in a folder of its own (`XDG_RUNTIME_DIR`).
    private func startNumpad(in directory: TemporaryDirectory, journal: String = "j.jsonl") async throws -> (Subprocess.Running, [String: String]) {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path("run")
        try FileManager.default.createDirectory(atPath: directory.path("run"), withIntermediateDirectories: true)
        let numpad = try Subprocess.Running(
            try #require(BuiltProducts.executable("sample-numpad")),
            ["--journal", directory.path(journal), "--control"],
            environment: environment
        )
        await #expect(numpad.wait { $1.contains("control endpoint") }, "the numpad says where its endpoint is")
        return (numpad, environment)
    }

    private func attach(_ arguments: [String], _ script: String, environment: [String: String]) async throws -> BuiltProducts.Run {
        try await Subprocess.run(try #require(BuiltProducts.executable("atoms-inspect")), ["attach"] + arguments, stdin: script, environment: environment, timeout: 30)
    }

    @Test func gotoShowsAnEarlierNumberAndLiveComesBack() async throws {
        let directory = try TemporaryDirectory()
        let (numpad, environment) = try await startNumpad(in: directory)
        for digits in ["4", "8", "15"] { numpad.send(digits) }
        #expect(await numpad.wait { stdout, _ in stdout.contains("display 4,815\n") })

        // Steps 1–2 watch the atoms, 3 types 4, 4 types 8.
        let run = try await attach([], "goto 3\nshow InputAtom\nlive\n", environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the program shows step 3"))
        #expect(run.stdout.contains("InputAtom = \"4\""))
        #expect(run.stdout.contains("back to the present (step 6)"))
        #expect(await numpad.wait { stdout, _ in stdout.hasSuffix("display 4\ndisplay 4,815\n") }, "\(numpad.stdout)")

        let list = try await attach(["--list"], "", environment: environment)
        #expect(list.stdout.hasPrefix("\(numpad.pid) sample-numpad "))

        numpad.send("2")
        numpad.closeInput()
        #expect(try await numpad.waitForExit() == 0)
        #expect(numpad.stdout.hasSuffix("display 48,152\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("run/atoms-control")).isEmpty, "the socket is removed")
        // The journal holds the jumps as restore transactions.
        let log = try await Subprocess.run(try #require(BuiltProducts.executable("atoms-inspect")), ["log", directory.path("j.jsonl")], timeout: 30)
        #expect(log.stdout.split(separator: "\n").filter { $0.contains(" restore ") }.count == 2, "\(log.stdout)")
    }

    @Test func setWritesIntoTheProgramAndARefusedValueWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let program = try await TodoProgram(in: directory)
        #expect(await program.addTodos())
        let before = try await program.lastStep()
        let script = "set TodosAtom[0].isCompleted = true\nset TodosAtom = 3\nset StatsAtom.total = 1\nprev\nset FilterAtom = \"all\"\nlive\n"
        let run = try await attach([String(program.pid)], script, environment: program.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("→ the program set TodosAtom, recorded as step \(before + 1)"), "\(run.stdout)")
        #expect(run.stdout.contains(" inspector TodosAtom"), "the step's cause says atoms-inspect wrote it: \(run.stdout)")
        #expect(run.stdout.contains("error: the value does not decode as Array<Todo>, the type of TodosAtom"), "\(run.stdout)")
        #expect(run.stdout.contains("error: StatsAtom is computed from other atoms — set a state it is derived from"))
        #expect(run.stdout.contains("error: the program shows step \(before) of its past — return to the present (live) and set again"), "\(run.stdout)")
        #expect(await program.waitForState { (($0["TodosAtom"] as? [[String: Any]])?.first?["isCompleted"] as? Bool) == true && $0["FilterAtom"] as? String == "completed" })
        // One set, then the jump and the return: nothing for the refused lines.
        #expect(try await program.lastStep() == before + 3)
        try await program.end()
    }

    @Test func aProgramThatExitsEndsTheSession() async throws {
        let directory = try TemporaryDirectory()
        let (numpad, environment) = try await startNumpad(in: directory)
        let attached = try Subprocess.Running(try #require(BuiltProducts.executable("atoms-inspect")), ["attach", String(numpad.pid)], environment: environment)
        await #expect(attached.wait { stdout, _ in stdout.contains("[2/2]") })
        numpad.closeInput()
        await #expect(try numpad.waitForExit() == 0)
        await #expect(try attached.waitForExit() == 0)
        #expect(attached.stderr.contains("sample-numpad (pid \(numpad.pid)) closed its control endpoint or exited — the session ends"))
    }

    @Test func noEndpointSeveralEndpointsAndBadTargetsHaveDocumentedStatuses() async throws {
        let directory = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path("empty")
        let none = try await attach([], "", environment: environment)
        #expect(none.status == 69 && none.stderr.contains("no running program of yours has a control endpoint"))
        let missing = try await attach([directory.path("nothing.sock")], "", environment: environment)
        #expect(missing.status == 69 && missing.stderr.contains("no control endpoint here"))

        let (first, shared) = try await startNumpad(in: directory, journal: "a.jsonl")
        let (second, _) = try await startNumpad(in: directory, journal: "b.jsonl")
        let several = try await attach([], "", environment: shared)
        #expect(several.status == 64 && several.stderr.contains("2 programs have a control endpoint"))
        // One line each, starting with the pid (one pid may end another: 123 and 5123).
        let listed = several.stderr.split(separator: "\n")
        #expect(listed.contains { $0.hasPrefix("\(first.pid) sample-numpad ") } && listed.contains { $0.hasPrefix("\(second.pid) sample-numpad ") }, "\(several.stderr)")
        let noPid = try await attach(["999999"], "", environment: shared)
        #expect(noPid.status == 69)
        let range = try await attach([String(first.pid)], "goto 99\n", environment: shared)
        #expect(range.status == 0 && range.stdout.contains("error: step 99 is outside the journal"))
        first.closeInput()
        second.closeInput()
        _ = try await first.waitForExit()
        _ = try await second.waitForExit()

        let counter = try await Subprocess.run(try #require(BuiltProducts.executable("sample-counter")), ["--journal", directory.path("c.jsonl"), "--control"], environment: shared, timeout: 30)
        #expect(counter.status == 64 && counter.stderr.contains("--control is taken by sample-todo and sample-numpad"))
    }
}
