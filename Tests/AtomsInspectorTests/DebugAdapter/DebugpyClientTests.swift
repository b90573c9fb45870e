import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `atoms-inspect dap` driven by a DAP client from the ecosystem: debugpy's message layer
/// (`debugpy_client.py` beside this file), over the built binary's stdin and stdout. What it
/// reports is compared with what `log` and `show` say of the same steps.
///
/// debugpy comes from PyPI (`.ci/run` installs it); without it the test says it skipped.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugpyClientTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("debugpy_client.py").path

    private static var hasDebugpy: Bool {
        get async {
            (try? await Subprocess.run("/usr/bin/env", ["python3", "-c", "import debugpy.common.messaging"], timeout: 30))?.status == 0
        }
    }

    @Test func debugpysClientStopsAtABreakpointStepsBothWaysAndSeesTheAtoms() async throws {
        guard await Self.hasDebugpy else {
            print("DebugpyClientTests: debugpy is not installed (pip install debugpy): the ecosystem client did not run")
            return
        }
        let journalPath = "samples/journals/todo.jsonl"
        let journal = try InspectedJournal(path: Self.repository + "/" + journalPath)
        let entries = try LogCommand.entries(journal, options: .init())
        // A write site first reached well into the session: continue has steps to cross.
        let target = try #require(entries.first { $0.step >= 10 && $0.at?.hasPrefix("sample_todo/main.swift:") == true })
        let site = try #require(target.at)
        let line = try #require(Int(site.split(separator: ":").last ?? ""))
        let firstHit = try #require(entries.first { $0.at == site })
        let file = Self.repository + "/samples/Todo/main.swift"

        let run = try await Subprocess.run(
            "/usr/bin/env", ["python3", Self.script, try #require(BuiltProducts.executable("atoms-inspect")), journalPath, Self.repository, file, String(line)],
            directory: Self.repository, timeout: 90
        )
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        func frame(_ key: String) -> [String: Any] { report[key] as? [String: Any] ?? [:] }

        #expect(report["supportsStepBack"] as? Bool == true)
        #expect(report["breakpointVerified"] as? Bool == true)
        #expect(report["entry"] as? String == "entry")
        #expect((frame("entryFrame")["name"] as? String)?.hasPrefix("step 0") == true)
        // Continue stops at the first step that writes from that line, as log lists it.
        #expect(report["continue"] as? String == "breakpoint")
        #expect((frame("breakpointFrame")["name"] as? String)?.hasPrefix("step \(firstHit.step) · \(firstHit.cause)") == true, "\(frame("breakpointFrame"))")
        #expect(frame("breakpointFrame")["path"] as? String == file)
        #expect(frame("breakpointFrame")["line"] as? Int == line)
        // Next and stepBack move one step each way; the frame is the write site log gives.
        let next = try #require(entries.first { $0.step == firstHit.step + 1 })
        #expect(report["next"] as? String == "step")
        #expect((frame("nextFrame")["name"] as? String)?.hasPrefix("step \(next.step) · \(next.cause)") == true, "\(frame("nextFrame"))")
        #expect(frame("nextFrame")["line"] as? Int == next.at.flatMap { Int($0.split(separator: ":").last ?? "") })
        #expect(report["stepBack"] as? String == "step")
        #expect(frame("stepBackFrame")["name"] as? String == frame("breakpointFrame")["name"] as? String)
        // The atoms live there, as show lists them.
        let state = try journal.state(at: firstHit.step)
        let variables = try #require(report["variables"] as? [String: String])
        #expect(Set(variables.keys).isSuperset(of: state.liveAtoms.map(\.displayName)), "\(variables.keys.sorted())")
        #expect(report["exitStatus"] as? Int == 0)
    }
}
