import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `step` sessions keep the states and transactions they decode, and may share them: what
/// they print is what sessions reading every step afresh print.
@MainActor
struct StepSessionMemoTests {
    /// Every command, moving back and forth so that steps are visited again.
    private static let script = [
        "next", "show", "next 3", "diff", "diff 1", "log", "prev 2", "show Tasks*", "graph",
        "find Draft*", "find -b TasksAtom", "blame TasksAtom", "where ShowDoneTasksAtom == false",
        "where -b TaskCountAtom >= 1", "goto last", "last", "reload", "first", "goto last-2",
        "d 0", "blame Draft*", "s DraftAtom", "l", "help", "nonsense", "quit",
    ]

    /// Runs the script, answering each line.
    private func run(_ session: StepSession) -> [String] {
        Self.script.map { session.handle($0).output }
    }

    @Test func sessionsSharingDecodedStepsPrintWhatAFreshReadPrints() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let shared = try InspectedJournal(path: path).memoized(capacity: 8)
        let first = run(try StepSession(journal: shared))
        let second = run(try StepSession(journal: shared))
        // Without a memo: every state and transaction decoded where it is needed.
        var fresh: [String] = []
        for line in Self.script {
            let journal = try InspectedJournal(path: path)
            let session = try StepSession(journal: journal)
            // Replay the moves so far on a fresh session, then answer the line.
            for earlier in Self.script.prefix(fresh.count) { _ = session.handle(earlier) }
            fresh.append(session.handle(line).output)
        }
        #expect(first == fresh)
        #expect(second == fresh, "the second session starts from the first one's memo")
        #expect(first.contains { $0.hasPrefix("[9/9]") } && first.contains { $0.hasPrefix("reloaded ") })
    }

    @Test func reloadReopensOnlyAFileThatChanged() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let journal = try InspectedJournal(path: path)
        #expect(try journal.reopened().reader === journal.reader, "nothing written since: the same reader")

        // A line appended: the reopened journal reads it.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let end = try #require(lines.last.map(String.init))
        text = lines.dropLast().joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let shorter = try InspectedJournal(path: path)
        try (text + end + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let reopened = try shorter.reopened()
        #expect(reopened.reader !== shorter.reader)
        #expect(reopened.reader.isEnded && !shorter.reader.isEnded)
    }
}
