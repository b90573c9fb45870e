import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsTesting

/// Input a replay cannot use fails the test by name, never with a crash.
@MainActor
struct JournalReplayInputTests {
    @Test func anAtomTheJournalNeverDeclaresIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        JournalReplayTests.recordSession(to: path)
        let replay = try JournalReplayTests.replay(path)
        replay.check(TopAtom())
        let failure = try #require(throws: JournalReplayFailure.self) { try replay.run(in: AtomTestContext()) }
        #expect(failure.atom == "TopAtom")
        #expect(failure.step == nil)
        #expect(failure.detail.hasPrefix("the journal never declares AtomsTestingTests.TopAtom — it declares AtomsTestingTests.CompletedCountingAtom, "), "\(failure.detail)")
    }

    @Test func anAtomTheJournalNeverDeclaresIsNamedWhereTheReplayFailsWithoutIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        JournalReplayTests.recordSession(to: path)
        let replay = try JournalReplay(journal: path)
        // Meant to be TodosAtom: without the list driven the counts differ at the first add,
        // but the atom never declared is what to report.
        replay.drive(SourceAtom())
        replay.check(StatsAtom())
        let failure = try #require(throws: JournalReplayFailure.self) { try replay.run(in: AtomTestContext()) }
        #expect(failure.atom == "SourceAtom")
        #expect(failure.step == nil)
        #expect(failure.detail.hasPrefix("the journal never declares AtomsTestingTests.SourceAtom — "), "\(failure.detail)")
    }

    @Test func atomsDeclaredMidSessionAreDrivenAndCheckedFromTheirFirstValue() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("late.jsonl")
        let context = AtomTestContext(journal: .path(path))
        context.watch(NameAtom())
        context[NameAtom()] = "Ada"
        // Declared only now, with the value the source was set to before it was watched.
        context[SourceAtom()] = 4
        context.watch(TopAtom())
        context[SourceAtom()] = 5
        (context.recording as? JournalRecording)?.finish(testFailed: false)

        let replay = try JournalReplay(journal: path)
        replay.drive(SourceAtom())
        replay.check(TopAtom())
        try replay.run(in: AtomTestContext())

        // Checked from its first value on: a top atom that no longer follows the source fails
        // where it was declared (steps: the name watched, written; the source set; the top
        // atom watched).
        let stale = try JournalReplay(journal: path)
        stale.drive(NameAtom())
        stale.check(TopAtom())
        let failure = try #require(throws: JournalReplayFailure.self) { try stale.run(in: AtomTestContext()) }
        #expect(failure.atom == "TopAtom")
        #expect(failure.step == 4, "\(failure)")
    }

    @Test func aRecordedValueThatNoLongerDecodesNamesTheAtomAndStep() throws {
        let directory = try TemporaryDirectory()
        let recordedPath = directory.path("names.jsonl")
        let context = AtomTestContext(journal: .path(recordedPath))
        context.watch(NameAtom())
        context[NameAtom()] = "Ada"
        (context.recording as? JournalRecording)?.finish(testFailed: false)
        // The same session, as if NameAtom had become SourceAtom, an Int.
        let text = try String(contentsOfFile: recordedPath, encoding: .utf8)
        let path = try directory.write("renamed.jsonl", text.replacingOccurrences(of: "AtomsTestingTests.NameAtom", with: "AtomsTestingTests.SourceAtom"))

        let replay = try JournalReplay(journal: path)
        replay.drive(SourceAtom())
        let failure = try #require(throws: JournalReplayFailure.self) { try replay.run(in: AtomTestContext()) }
        #expect(failure.atom == "SourceAtom")
        // Its first value, as it was created, is the first it cannot write.
        #expect(failure.step == 1)
        #expect(failure.cause == "initialize")
        #expect(failure.detail == "its recorded value \"\" no longer decodes as today's type: the value is not Int — update the journal (record the session again) or the type")
    }

    @Test func aDamagedJournalNamesTheFileAndLine() throws {
        let directory = try TemporaryDirectory()
        let recordedPath = directory.path("todo.jsonl")
        JournalReplayTests.recordSession(to: recordedPath)
        var lines = try String(contentsOfFile: recordedPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let damaged = try #require(lines.indices.dropFirst(6).first { lines[$0].hasPrefix("[") })
        lines[damaged] = String(lines[damaged].prefix(12)) + "}"
        let path = try directory.write("damaged.jsonl", lines.joined(separator: "\n"))

        let failure = try #require(throws: JournalReplayFailure.self) { try JournalReplayTests.replay(path).run(in: AtomTestContext()) }
        #expect(failure.description.contains("\(path):\(damaged + 1): error:"), "\(failure.description)")
    }

    @Test func aJournalThatCannotBeReadIsNamed() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("missing.jsonl")
        let failure = try #require(throws: JournalReplayFailure.self) { try JournalReplay(journal: missing) }
        #expect(failure.journal == missing)
        #expect(failure.description.contains(missing))
        let notAJournal = try directory.write("notes.txt", "shopping list\n")
        #expect(throws: JournalReplayFailure.self) { try JournalReplay(journal: notAJournal) }
    }

    @Test func aFamilyKeyTheTestCannotMapIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todo.jsonl")
        JournalReplayTests.recordSession(to: path)
        let replay = try JournalReplay(journal: path)
        replay.drive(TodosAtom())
        replay.check(NoteLengthAtom.self) { _ in nil }
        let failure = try #require(throws: JournalReplayFailure.self) { try replay.run(in: AtomTestContext()) }
        #expect(failure.atom == "NoteLengthAtom[2]")
        #expect(failure.detail.contains("key mapping gives no atom for the recorded key \"2\""), "\(failure.detail)")
    }
}
