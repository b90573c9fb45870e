import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Killing a recording process leaves a journal the reader opens with every written
/// transaction intact.
struct CrashDurabilityTests {
    @Test func sigkillMidSessionLosesNoWrittenTransaction() async throws {
        let executable = try #require(BuiltProducts.executable("sample-counter"), "build sample-counter first (`swift build`)")
        let directory = try TemporaryDirectory()
        let path = directory.path("killed.jsonl")

        let process = try Subprocess.Running(executable, ["--journal", path, "--keyframe-interval", "16"])

        // 40 increments, then `state`: once its line is printed, all 40 were committed.
        process.send(String(repeating: "inc\n", count: 40) + "state")
        #expect(await process.wait(timeout: 60) { stdout, _ in stdout.hasSuffix("\n") })
        let firstState = process.stdout.split(separator: "\n").first.map(String.init)
        #expect(firstState == #"{"CounterAtom":40,"IsEvenAtom":true}"#)
        // Wait until the recorder's thread wrote the committed lines, then keep the process
        // busy writing so the kill lands mid-write.
        _ = await Poll.until(timeout: 60) { transactionLines(in: path) >= 42 }
        #expect(transactionLines(in: path) >= 42, "the 42 committed transactions reached the file")
        process.send(String(repeating: "inc\n", count: 2000))
        process.kill(signal: SIGKILL)
        _ = try await process.waitForExit(timeout: 60)
        #expect(process.endedBySignal == true)

        let journal = try JournalReader(path: path)
        #expect(journal.lastStep >= 42, "the 2 initializing and 40 set transactions were written")
        #expect(journal.warnings.count <= 1, "at most a torn last line")
        let state = try journal.state(at: journal.lastStep)
        let counter = try #require(state.liveAtoms.first { $0.label == "CounterAtom" })
        #expect(state.values[counter.id]?.v == .number(JSONNumber(journal.lastStep - 2)))
        // Every transaction before the end decodes.
        for seq in 1...journal.lastStep {
            _ = try journal.transaction(seq)
        }
    }

    /// The transaction lines in the file at `path` now.
    private func transactionLines(in path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("[") && $0.hasSuffix("]") }.count
    }
}
