import AtomsJournal
import Foundation
import Testing
import TestSupport

/// The samples' `--flight-recorder SIZE`, run as built: nothing written until `SIGUSR1` or a
/// clean exit with `--journal PATH`, and every command reads what they write. Not on the main
/// actor: the waits for the processes leave it to other tests.
struct FlightRecorderSampleTests {
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    }

    private func inspect(_ arguments: [String], stdin: String = "") async throws -> BuiltProducts.Run {
        try await BuiltProducts.run("atoms-inspect", arguments, stdin: stdin)
    }

    @Test func theTodoSampleDumpsOnSIGUSR1AndAtExitAndEveryCommandReadsTheDumps() async throws {
        let directory = try TemporaryDirectory()
        let exitPath = directory.path("exit.jsonl")
        let commands = try String(contentsOf: repository.appendingPathComponent("samples/journals/todo.commands"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && $0 != "state" }
        let todo = try Subprocess.Running(try #require(BuiltProducts.executable("sample-todo")), ["--flight-recorder", "32K", "--journal", exitPath, "--timing"])
        #expect(await todo.wait(timeout: 60) { _, stderr in stderr.contains("kill -USR1 \(todo.pid) writes them into \(directory.url.path)") })
        for command in commands {
            todo.send(String(command))
        }
        todo.send("flush")
        #expect(await todo.wait(timeout: 60) { stdout, _ in stdout.contains("flushed ") })
        let flushed = try #require(todo.stdout.split(separator: "\n").last { $0.hasPrefix("flushed ") }.flatMap { Int($0.dropFirst(8)) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty, "nothing is written until asked")

        todo.kill(signal: SIGUSR1)
        let signalPath = directory.path("sample-todo.\(todo.pid).1.jsonl")
        #expect(await todo.wait(timeout: 60) { _, stderr in stderr.contains("sample-todo: flight recorder: wrote \(signalPath) (steps ") })
        todo.send("add one more")
        todo.closeInput()
        #expect(try await todo.waitForExit(timeout: 60) == 0)

        let signalDump = try JournalReader(path: signalPath)
        let exitDump = try JournalReader(path: exitPath)
        #expect(signalDump.lastStep == flushed, "the signal's dump holds every transaction committed before it")
        #expect(exitDump.lastStep > flushed)
        for dump in [signalDump, exitDump] {
            #expect(dump.firstStep > 0 && dump.droppedTransactions == dump.firstStep, "32 KB holds the last transactions only")
            #expect(dump.isEnded && dump.warnings.isEmpty)
        }

        // Every command reads a dump as it reads any journal, from its first step kept.
        let first = String(exitDump.firstStep)
        let rules = try directory.write("todo.rules", "acyclic\nnode TodosAtom\n")
        let runs: [[String]] = [
            ["stats", exitPath], ["log", exitPath], ["show", exitPath, "--at", first], ["show", exitPath, "--at", "last"],
            ["diff", exitPath, first, "last"], ["graph", exitPath, "--at", first], ["blame", exitPath, "TodosAtom"],
            ["find", exitPath, "--where", "FilterAtom == \"all\""], ["check", exitPath, "--rules", rules],
            ["profile", exitPath], ["restore", exitPath, "--at", first, "-o", directory.path("state.json")],
            ["report", exitPath, "-o", directory.path("report.html")], ["compare", signalPath, exitPath],
        ]
        for arguments in runs {
            let run = try await inspect(arguments)
            #expect(run.status == 0 || (arguments[0] == "compare" && run.status == 1), "\(arguments): \(run.stderr)")
            #expect(arguments[0] == "compare" || arguments[0] == "restore" || arguments[0] == "report" || run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        }
        let stats = try await inspect(["stats", exitPath])
        #expect(stats.stdout.contains("(steps \(exitDump.firstStep)…\(exitDump.lastStep)), \(exitDump.firstStep) earlier ones dropped"))
        let step = try await inspect(["step", exitPath], stdin: "first\nnext\nlast\nquit\n")
        #expect(step.status == 0)
        #expect(step.stdout.contains("[\(exitDump.firstStep)/\(exitDump.lastStep)]") && step.stdout.contains("[\(exitDump.lastStep)/\(exitDump.lastStep)]"))
    }

    @Test func flightRecorderOptionsThatCannotWorkAreUsageErrors() async throws {
        let cases: [([String], String)] = [
            (["--flight-recorder", "1K"], "--flight-recorder needs a size of at least 4KB, in bytes or with a K, M or G suffix (got '1K')"),
            (["--flight-recorder", "lots"], "--flight-recorder needs a size of at least 4KB"),
            (["--flight-recorder", "4M", "--journal", "/tmp/x", "--journal-limit", "4M"], "--journal-limit and --flight-recorder both bound the journal: give one"),
            (["--flight-recorder", "4M", "--journal", "/tmp/x", "--control"], "--control needs --journal PATH without --flight-recorder"),
        ]
        for (arguments, message) in cases {
            let run = try await BuiltProducts.run("sample-counter", arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("sample-counter: \(message)"), "\(arguments): \(run.stderr)")
        }
        let help = try await BuiltProducts.run("sample-counter", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--flight-recorder SIZE"))
    }
}
