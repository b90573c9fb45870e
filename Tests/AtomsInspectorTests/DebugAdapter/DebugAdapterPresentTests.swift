import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// How many times the attach flow runs.
private let attachFlowRuns = ProcessInfo.processInfo.environment["ATOMS_ATTACH_FLOW_RUNS"].flatMap(Int.init) ?? 3

/// Attached to `sample-todo --control`: every stop shows exactly the state the program
/// prints, the return to the present above all; the present's frame is the program's code;
/// the program's new writes refresh the editor.
///
/// `ATOMS_ATTACH_FLOW_RUNS` sets how many times the flow runs (3 by default);
/// `Benchmarks/attach-present-stress.sh` runs it 200 times and says how many runs were wrong.
@Suite(.timeLimit(.minutes(Patience.minutes(attachFlowRuns > 10 ? 60 : 3))))
struct DebugAdapterPresentTests {
    static let runs = attachFlowRuns

    /// Whether the editor's values are the program's last printed state (waiting for its
    /// output, which may come after the stop).
    private func agree(_ client: DAPClient, _ program: TodoProgram) async throws -> Bool {
        let shown = try await client.todoValues()
        return await program.waitForState { NSDictionary(dictionary: $0.filter { shown[$0.key] != nil }).isEqual(to: shown) && shown.count == 4 }
    }

    /// Step back twice, then continue to the present: at each stop the editor and the program
    /// agree, and the present is the program's last step. Returns the stops that disagreed.
    private func flow(_ run: Int) async throws -> [String] {
        let directory = try TemporaryDirectory()
        let program = try await TodoProgram(in: directory)
        #expect(await program.addTodos())
        let client = try await DAPClient.attached(to: program)
        var wrong: [String] = []
        let present = try await program.lastStep()
        if try await client.position() != present { wrong.append("entry at step \(try await client.position()), not \(present)") }
        if try await !agree(client, program) { wrong.append("entry values") }
        for back in 1...2 {
            _ = try await client.move("stepBack")
            if try await client.position() != present - back { wrong.append("step back \(back)") }
            if try await !agree(client, program) { wrong.append("step back \(back) values") }
        }
        let continued = try await client.request("continue", ["threadId": 1])
        guard continued["success"] as? Bool == true else {
            wrong.append("continue failed: \(continued["message"] ?? "")")
            _ = try await client.disconnect()
            try await program.end()
            return wrong
        }
        let stopped = try #require(try await client.event("stopped")["body"] as? [String: Any])
        let last = try await program.lastStep()
        let position = try await client.position()
        if position != last { wrong.append("present at step \(position), the program's last is \(last)") }
        if try await !agree(client, program) { wrong.append("present values: \(try await client.todoValues()) — the program printed \(program.printed ?? [:])") }
        #expect((stopped["text"] as? String)?.contains("the program is back in the present") == true)

        // The present's frame is the program's own last write site, never the library.
        let frame = try await client.topFrame()
        let path = (frame["source"] as? [String: Any])?["path"] as? String
        #expect(path == DebugAdapterSessionTests.repository + "/samples/Todo/main.swift", "run \(run): \(frame)")
        #expect((frame["name"] as? String)?.contains("by atoms-inspect (back to the present of step \(present))") == true, "\(frame)")
        #expect(try await client.disconnect() == 0)
        try await program.end()
        return wrong
    }

    @Test func everyStopOfTheAttachFlowIsTheProgramsState() async throws {
        var wrongRuns = 0
        for run in 1...Self.runs {
            let wrong = try await flow(run)
            if !wrong.isEmpty {
                wrongRuns += 1
                Issue.record("run \(run): \(wrong.joined(separator: "; "))")
            }
        }
        print("attach flow (step back twice, continue to the present): \(wrongRuns) of \(Self.runs) runs wrong")
        #expect(wrongRuns == 0)
    }

    @Test func theProgramsNewWritesRefreshTheEditorInOrder() async throws {
        let directory = try TemporaryDirectory()
        let program = try await TodoProgram(in: directory)
        #expect(await program.addTodos())
        // nvim-dap and Helix take no `invalidated`: a stop refreshes them.
        let client = try await DAPClient.attached(to: program)
        for text in ["Read", "Write", "Run"] {
            program.process.send("add \(text)")
        }
        #expect(await program.waitForState { ($0["TodosAtom"] as? [Any])?.count == 6 })
        let last = try await program.lastStep()
        // Each add is two transactions; a stop comes for each batch the adapter saw, in order,
        // the last at the program's last step.
        var seen: [Int] = []
        while seen.last != last, seen.count < 12 {
            let stopped = try #require(try await client.event("stopped")["body"] as? [String: Any])
            #expect((stopped["text"] as? String)?.hasPrefix("the program recorded step") == true)
            let description = try #require(stopped["description"] as? String)
            seen.append(try #require(Int(description.dropFirst(5).prefix { $0.isNumber })))
        }
        #expect(seen == seen.sorted() && Set(seen).count == seen.count && seen.last == last, "\(seen), last \(last)")
        #expect(try await agree(client, program))
        #expect(try await client.disconnect() == 0)

        // VS Code takes `invalidated`.
        let refreshing = try await DAPClient.attached(to: program, initialize: ["supportsInvalidatedEvent": true])
        program.process.send("toggle 1")
        let invalidated = try #require(try await refreshing.event("invalidated")["body"] as? [String: Any])
        #expect(invalidated["areas"] as? [String] == ["all"])
        #expect(try await refreshing.position() == program.lastStep())
        #expect(try await refreshing.disconnect() == 0)
        try await refreshing.validateAgainstSchema()
        try await program.end()
    }
}
