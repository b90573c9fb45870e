import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// The samples as users run them: scripted sessions, recorded, inspected, restored.
@MainActor
struct SampleEndToEndTests {
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    }

    private func commands(_ sample: String) throws -> [String] {
        try String(contentsOf: repository.appendingPathComponent("samples/journals/\(sample).commands"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    @Test(arguments: ["counter", "todo", "numpad", "movies"])
    func scriptedSessionRecordsAJournalTheInspectorOpens(sample: String) async throws {
        let directory = try TemporaryDirectory()
        let journalPath = directory.path("\(sample).jsonl")
        let script = try commands(sample).joined(separator: "\n") + "\n"
        let run = try await BuiltProducts.run("sample-\(sample)", ["--journal", journalPath], stdin: script)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "the scripted session has no failing command: \(run.stderr)")
        let journal = try InspectedJournal(path: journalPath)
        #expect(journal.reader.warnings.isEmpty)
        #expect(journal.reader.transactionCount > 20)
        // The last `state` line the sample printed equals the values the journal holds at its end.
        let lastState = try #require(run.stdout.split(separator: "\n").last.map(String.init))
        let printed = try JSONDecoder().decode([String: JSONValue].self, from: Data(lastState.utf8))
        let state = try journal.state(at: journal.reader.lastStep)
        for (label, value) in printed {
            let atom = try #require(state.liveAtoms.first { $0.label == label }, "\(label) is live at the end")
            #expect(state.values[atom.id]?.v == value, "\(label) at the end")
        }
    }

    @Test func todoRestoredFromAStepPrintsWhatTheLiveSessionPrintedThere() async throws {
        let directory = try TemporaryDirectory()
        let all = try commands("todo").filter { !$0.hasPrefix("#") && $0 != "state" }
        let fullJournal = directory.path("full.jsonl")
        let full = try await BuiltProducts.run("sample-todo", ["--journal", fullJournal], stdin: all.joined(separator: "\n") + "\n")
        #expect(full.status == 0)

        for prefix in [7, 30, 80] {
            // The live session up to this command, and the state it printed there.
            let partialJournal = directory.path("prefix-\(prefix).jsonl")
            let live = try await BuiltProducts.run("sample-todo", ["--journal", partialJournal], stdin: (all.prefix(prefix) + ["state"]).joined(separator: "\n") + "\n")
            let step = try InspectedJournal(path: partialJournal).reader.lastStep

            // Restore that step from the longer journal, start a new process from it.
            let stateFile = directory.path("state-\(prefix).json")
            let restore = try await BuiltProducts.run("atoms-inspect", ["restore", fullJournal, "--at", String(step), "-o", stateFile])
            #expect(restore.status == 0, "\(restore.stderr)")
            let restored = try await BuiltProducts.run("sample-todo", ["--restore", stateFile], stdin: "state\n")
            #expect(restored.status == 0)
            #expect(restored.stderr.isEmpty)
            #expect(restored.stdout == live.stdout, "state at step \(step) (after \(prefix) commands)")
        }
    }

    @Test func theTodoJournalAttributesEachCommandToTheLineThatWrote() async throws {
        // The lines of samples/Todo/main.swift that write, found by their text.
        let source = try String(contentsOf: repository.appendingPathComponent("samples/Todo/main.swift"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        func line(of statement: String) throws -> String {
            let index = try #require(source.firstIndex { $0.contains(statement) }, "\(statement) is in the sample")
            return "sample_todo/main.swift:\(index + 1)"
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        let run = try await BuiltProducts.run("sample-todo", ["--journal", path], stdin: "add a\ntoggle 1\nremove 1\nfilter completed\n")
        #expect(run.status == 0)
        let entries = try LogCommand.entries(try InspectedJournal(path: path), options: .init())
        let writes = entries.filter { $0.cause == "set" }.map { "\($0.changed.first ?? "?") @ \($0.at ?? "-")" }
        #expect(writes == [
            "NextTodoIDAtom @ \(try line(of: "list[NextTodoIDAtom()] += 1"))",
            "TodosAtom @ \(try line(of: "list[TodosAtom()].append("))",
            "TodosAtom @ \(try line(of: "list[TodosAtom()][index].isCompleted.toggle()"))",
            "TodosAtom @ \(try line(of: "list[TodosAtom()].remove(at: index)"))",
            "FilterAtom @ \(try line(of: "picker[FilterAtom()] = filter"))",
        ])
    }

    @Test func aLargeTodoSessionRestoredAtSteps1000And3000PrintsWhatTheLiveSessionPrinted() async throws {
        // 500 todos, then 3,000 toggles chosen by a fixed generator (the large todo session).
        var generator: UInt64 = 0x5EED
        let adds = (1...500).map { "add Todo number \($0), as users write them" }
        let toggles = (0..<3_000).map { _ -> String in
            generator = generator &* 6364136223846793005 &+ 1442695040888963407
            return "toggle \(Int(generator >> 33) % 500 + 1)"
        }
        let all = adds + toggles
        let directory = try TemporaryDirectory()
        let fullJournal = directory.path("full.jsonl")
        let full = try await BuiltProducts.run("sample-todo", ["--journal", fullJournal], stdin: all.joined(separator: "\n") + "\n")
        #expect(full.status == 0 && full.stderr.isEmpty)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: fullJournal)[.size] as? Int)
        let transactions = try InspectedJournal(path: fullJournal).reader.transactionCount
        #expect(bytes / transactions < 1_000, "a toggle records what changed, not the list (\(bytes / transactions) bytes a transaction)")

        // Four transactions initialize the sample's atoms; an add is two, a toggle one.
        for (prefix, step) in [(498, 1_000), (500 + 1_996, 3_000)] {
            let partialJournal = directory.path("prefix-\(prefix).jsonl")
            let live = try await BuiltProducts.run("sample-todo", ["--journal", partialJournal], stdin: (all.prefix(prefix) + ["state"]).joined(separator: "\n") + "\n")
            #expect(try InspectedJournal(path: partialJournal).reader.lastStep == step)
            let stateFile = directory.path("state-\(step).json")
            let restore = try await BuiltProducts.run("atoms-inspect", ["restore", fullJournal, "--at", String(step), "-o", stateFile])
            #expect(restore.status == 0, "\(restore.stderr)")
            let restored = try await BuiltProducts.run("sample-todo", ["--restore", stateFile], stdin: "state\n")
            #expect(restored.stderr.isEmpty)
            #expect(restored.stdout == live.stdout, "state at step \(step)")
        }
    }

    /// A journal without its timestamps: the header's `created` and each transaction's `t`.
    private func withoutTimestamps(_ journal: String) throws -> [String] {
        // Timing lines are times too: they vary run to run.
        try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("\"") }.map { line in
            var line = String(line)
            if let created = line.range(of: #""created":"[^"]*""#, options: .regularExpression) {
                line.replaceSubrange(created, with: "")
            }
            if line.hasPrefix("["), let firstComma = line.firstIndex(of: ","),
                let secondComma = line[line.index(after: firstComma)...].firstIndex(of: ",")
            {
                line.replaceSubrange(line.index(after: firstComma)..<secondComma, with: "T")
            }
            if line.hasPrefix(#"{"type":"end""#), let time = line.range(of: #""t":[0-9.]+"#, options: .regularExpression) {
                line.replaceSubrange(time, with: #""t":T"#)
            }
            return line
        }
    }

    // sample-movies included: its script waits for each async search to settle (and after a
    // first key typed on a later page, whose page reset searches the old query again), and a
    // refresh that is superseded commits nothing, so no two results race.
    @Test(arguments: ["counter", "todo", "numpad", "movies"])
    func aScriptedSessionRecordedTwiceGivesTheSameJournal(sample: String) async throws {
        let directory = try TemporaryDirectory()
        let script = try commands(sample).joined(separator: "\n") + "\n"
        var journals: [[String]] = []
        for run in 1...2 {
            let path = directory.path("\(sample)-\(run).jsonl")
            let result = try await BuiltProducts.run("sample-\(sample)", ["--journal", path, "--keyframe-interval", "64"], stdin: script)
            #expect(result.status == 0)
            journals.append(try withoutTimestamps(path))
        }
        #expect(journals[0].count > 20)
        // The movies script types a query a key per line, and its search is debounced by 50 ms:
        // on a loaded machine (ThreadSanitizer, every suite at once) a key can come later than
        // that, and the search then runs mid-word. That run was another session (more search
        // results), not a recorder that wrote one session two ways; the recorder's bytes are
        // compared whenever the two runs searched alike.
        if sample == "movies", Self.searches(journals[0]) != Self.searches(journals[1]) {
            print("SampleEndToEndTests: the movies session searched \(Self.searches(journals[0])) and \(Self.searches(journals[1])) times in its two runs (a key came after the 50 ms debounce): not compared")
            return
        }
        let first = zip(journals[0], journals[1]).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(journals[0].count, journals[1].count)
        #expect(
            journals[0] == journals[1],
            "two processes, one session: the same bytes but for timestamps; first difference at line \(first + 1): \(journals[0].dropFirst(first).first?.prefix(300) ?? "(end)") against \(journals[1].dropFirst(first).first?.prefix(300) ?? "(end)")"
        )
    }

    /// How many searches a movies session's journal ran (their results, as async results).
    private static func searches(_ lines: [String]) -> Int {
        lines.filter { $0.contains(#","async-result","#) }.count
    }

    @Test func restoredTodoKeepsHandingOutNewIDs() async throws {
        let directory = try TemporaryDirectory()
        let journal = directory.path("j.jsonl")
        _ = try await BuiltProducts.run("sample-todo", ["--journal", journal], stdin: "add a\nadd b\nremove 2\n")
        let stateFile = directory.path("s.json")
        _ = try await BuiltProducts.run("atoms-inspect", ["restore", journal, "--at", "last", "-o", stateFile])
        let restored = try await BuiltProducts.run("sample-todo", ["--restore", stateFile], stdin: "add c\nstate\n")
        #expect(restored.stdout.contains(#"{"id":3,"isCompleted":false,"text":"c"}"#))
    }

    @Test func samplesReportBadInputClearly() async throws {
        let unknown = try await BuiltProducts.run("sample-counter", [], stdin: "jump\ninc\nstate\n")
        #expect(unknown.status == 0)
        #expect(unknown.stderr == "sample-counter: unknown command 'jump' — type one of the sample's commands (see samples/README.md)\n")
        #expect(unknown.stdout == #"{"CounterAtom":1,"IsEvenAtom":false}"# + "\n")
        let missing = try await BuiltProducts.run("sample-todo", ["--restore", "/nonexistent/state.json"])
        #expect(missing.status == 66)
        let usage = try await BuiltProducts.run("sample-todo", ["--frobnicate"])
        #expect(usage.status == 64)
    }
}
