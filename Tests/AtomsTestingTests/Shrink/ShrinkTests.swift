import Atoms
import AtomsInspector
@testable import AtomsJournal
import Foundation
import SampleTodo
import Testing
import TestSupport
@testable import AtomsTesting

/// Shrinking a recorded 1,000-write session to the fewest writes and smallest values under
/// which a condition becomes true: a value bug and a sequence bug through an effect.
@MainActor
struct ShrinkTests {
    /// The steps of a journal whose transaction is a `set` of the atom labelled `label`.
    static func setSteps(of label: String, in path: String) throws -> [Int] {
        let journal = try InspectedJournal(path: path)
        let declarations = try journal.declarations(through: journal.reader.lastStep)
        let ids = Set(declarations.values.filter { $0.label == label }.map(\.id))
        return try (1...journal.reader.lastStep).filter { step in
            let record = try journal.transaction(step, decodingValuesOf: [])
            return record.cause == "set" && record.origin.map(ids.contains) == true
        }
    }

    /// Whether `condition` holds on the recorded values at the journal's last step.
    static func holdsAtLastStep(_ condition: String, in path: String) throws -> Bool {
        let journal = try InspectedJournal(path: path)
        let state = try journal.state(at: journal.reader.lastStep)
        let bound = try BoundExpression(try WhereExpression.parse(condition), declarations: state.declarations, journal: path)
        return bound.holds(in: state.values)
    }

    @Test func aValueBugShrinksToTheOneWriteAndTheOneElementItNeeds() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todos.jsonl")
        // Smaller than the benchmark's 1,000 writes (atoms-bench shrink), to keep the suite
        // quick under ThreadSanitizer: 200 todos added, toggles, the bad one at write 280.
        ShrinkSessions.recordValueBug(to: path, writes: 400, badWrite: 280)
        let writes = try Self.setSteps(of: "ShrinkTodosAtom", in: path)
        #expect(writes.count == 400)
        let replay = try JournalReplay(journal: path)
        replay.drive(ShrinkTodosAtom())
        replay.watch(ShrinkStatsAtom())
        let shrunkPath = directory.path("todos.shrunk.jsonl")
        let condition = "ShrinkStatsAtom.total != ShrinkTodosAtom.count"
        let shrunk = try replay.shrink(until: condition, in: AtomTestContext.init, journal: shrunkPath)
        #expect(shrunk.isComplete)
        #expect(shrunk.recordedTransactions == 400)
        // The 281st write added the todo the stats leave out.
        #expect(shrunk.kept.map(\.step) == [writes[280]])
        let write = try #require(shrunk.kept.first?.writes.first)
        #expect(write.atom == "ShrinkTodosAtom" && write.isShrunk)
        // One element of 201, its id moved to 0 and its text cut to what the bug needs.
        #expect(try JSONValue.parse(Array(write.value.utf8)) == .array([.object(["id": .number(0), "text": .string("!"), "isCompleted": .bool(false)])]), "\(shrunk)")
        #expect(shrunk.trials > 10 && shrunk.trials < 1_000, "\(shrunk.trials) trials")
        #expect(shrunk.shrunkJournal == shrunkPath)
        #expect(try Self.holdsAtLastStep(condition, in: shrunkPath))
        let header = try InspectedJournal(path: shrunkPath).reader.header
        #expect(header.program == "shrink of \(path) until \(condition)")
    }

    @Test func aSequenceBugThroughAnEffectKeepsExactlyTheSevenWritesItNeeds() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("draft.jsonl")
        ShrinkSessions.recordSequenceBug(to: path)
        let drafts = try Self.setSteps(of: "DraftAtom", in: path)
        #expect(drafts.count == 10)
        let replay = try JournalReplay(journal: path)
        replay.drive(DraftAtom())
        replay.drive(NoiseAtom())
        replay.watch(EditCountAtom())
        let shrunkPath = directory.path("draft.shrunk.jsonl")
        let shrunk = try replay.shrink(until: "EditCountAtom >= 7", in: { AtomTestContext() }, journal: shrunkPath)
        #expect(shrunk.isComplete)
        #expect(shrunk.recordedTransactions == 1_000)
        // The effect counts updates: seven draft writes, the first seven, and no noise.
        #expect(shrunk.kept.map(\.step) == Array(drafts.prefix(7)), "\(shrunk)")
        #expect(shrunk.kept.allSatisfy { $0.writes.map(\.atom) == ["DraftAtom"] })
        #expect(try Self.holdsAtLastStep("EditCountAtom >= 7", in: shrunkPath))
    }

    @Test func theRegressionCheckFailsWithTheShrunkSessionWhileTheConditionIsReached() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("draft.jsonl")
        ShrinkSessions.recordSequenceBug(to: path, writes: 200)
        let replay = try JournalReplay(journal: path)
        replay.drive(DraftAtom())
        replay.drive(NoiseAtom())
        replay.watch(EditCountAtom())
        let shrunkPath = directory.path("draft.shrunk.jsonl")
        let failure = try #require(throws: JournalReplayFailure.self) {
            try replay.expectNever("EditCountAtom >= 2", in: AtomTestContext.init, journal: shrunkPath)
        }
        let shrunk = try #require(failure.shrink)
        #expect(shrunk.kept.count == 2)
        #expect(failure.step == shrunk.kept.last?.step)
        #expect(failure.description.contains("the shrunk session: \(shrunkPath) — step through it with `atoms-inspect step \(shrunkPath)`"), "\(failure)")
        #expect(failure.description.contains("DraftAtom = \"\"  (shrunk)"), "\(failure)")
        // Once the bug is gone (here: a condition the session never reaches), it passes.
        try replay.expectNever("EditCountAtom >= 50", in: AtomTestContext.init, journal: shrunkPath)
    }

    @Test func aBudgetThatRunsOutReturnsTheSmallestSessionFoundSoFar() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("draft.jsonl")
        ShrinkSessions.recordSequenceBug(to: path, writes: 400)
        let replay = try JournalReplay(journal: path)
        replay.drive(DraftAtom())
        replay.drive(NoiseAtom())
        replay.watch(EditCountAtom())
        let shrunk = try replay.shrink(until: "EditCountAtom >= 3", in: AtomTestContext.init, budget: ShrinkBudget(trials: 4, seconds: 60), journal: directory.path("s.jsonl"))
        #expect(!shrunk.isComplete)
        #expect(shrunk.trials == 4)
        #expect(shrunk.kept.count >= 3)
        #expect(shrunk.description.contains("stopped early: the budget ran out"))
    }

    @Test func badInputGetsOneClearFailureNamingIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("draft.jsonl")
        ShrinkSessions.recordSequenceBug(to: path, writes: 100)
        let replay = try JournalReplay(journal: path)
        replay.drive(DraftAtom())
        replay.drive(NoiseAtom())
        let unparsed = try #require(throws: JournalReplayFailure.self) { try replay.shrink(until: "EditCountAtom >= ", in: AtomTestContext.init) }
        #expect(unparsed.detail.contains("the condition 'EditCountAtom >= ' does not make sense") && unparsed.detail.contains("column"), "\(unparsed.detail)")
        let unwatched = try #require(throws: JournalReplayFailure.self) { try replay.shrink(until: "EditCountAtom >= 7", in: AtomTestContext.init) }
        #expect(unwatched.detail.contains("reads EditCountAtom (column 1), which the replay neither drives, checks nor watches — add `replay.watch(AtomsTestingTests.EditCountAtom())`"), "\(unwatched.detail)")
        let unknown = try #require(throws: JournalReplayFailure.self) { try replay.shrink(until: "SavedAtom == 1", in: AtomTestContext.init) }
        #expect(unknown.detail.contains("no atom in the journal is named 'SavedAtom'"), "\(unknown.detail)")
        let never = try #require(throws: JournalReplayFailure.self) { try replay.shrink(until: "NoiseAtom > 5000", in: AtomTestContext.init) }
        #expect(never.detail.contains("the session never reaches the condition 'NoiseAtom > 5000'"), "\(never.detail)")
        #expect(never.detail.contains("atoms-inspect find \(path) --where 'NoiseAtom > 5000' --first"), "\(never.detail)")
        // A budget that allows no trial is not a session that never reaches the condition:
        // the regression check must not pass on it.
        let noBudget = try #require(throws: JournalReplayFailure.self) {
            try replay.expectNever("NoiseAtom > 5", in: AtomTestContext.init, budget: ShrinkBudget(trials: 0, seconds: 60))
        }
        #expect(noBudget.detail.contains("allows no trial of the whole session"), "\(noBudget.detail)")
    }

    @Test func aRecordedValueThatNoLongerDecodesIsNamedBeforeAnyTrial() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("draft.jsonl")
        ShrinkSessions.recordSequenceBug(to: path, writes: 200)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: "\"Dear Ada, draft 2 of the letter\"", with: "42")
        #expect(damaged != text)
        try damaged.write(toFile: path, atomically: true, encoding: .utf8)
        let replay = try JournalReplay(journal: path)
        replay.drive(DraftAtom())
        replay.watch(EditCountAtom())
        let failure = try #require(throws: JournalReplayFailure.self) { try replay.shrink(until: "EditCountAtom >= 7", in: AtomTestContext.init) }
        #expect(failure.atom == "DraftAtom" && failure.step != nil)
        #expect(failure.detail.contains("no longer decodes as today's type"), "\(failure.detail)")
    }
}

/// Delta debugging on its own: the smallest part, 1-minimal, within a budget.
struct DeltaDebuggingTests {
    @Test func findsExactlyTheItemsATestNeeds() {
        var tests = 0
        let result = DeltaDebugging.minimize(Array(0..<1_000)) { part in
            tests += 1
            return part.contains(3) && part.contains(617) && part.contains(999)
        }
        #expect(result.kept == [3, 617, 999] && result.isComplete)
        #expect(tests < 400, "\(tests) tests")
    }

    @Test func theResultIsOneMinimalWhenItemsMatterTogether() {
        // Holds for any two adjacent items: a part of 2 whose removal of either fails.
        let result = DeltaDebugging.minimize(Array(0..<64)) { part in
            zip(part, part.dropFirst()).contains { $1 == $0 + 1 }
        }
        #expect(result.kept.count == 2 && result.kept[1] == result.kept[0] + 1)
    }

    @Test func anEmptyPartIsTheSmallest() {
        #expect(DeltaDebugging.minimize(Array(0..<10)) { _ in true }.kept.isEmpty)
    }

    @Test func aTestOutOfBudgetStopsWithThePartFoundSoFar() {
        var tests = 0
        let result = DeltaDebugging.minimize(Array(0..<100)) { part -> Bool? in
            tests += 1
            return tests > 3 ? nil : part.contains(42)
        }
        #expect(!result.isComplete && result.kept.contains(42) && result.kept.count < 100)
    }
}

/// What `atoms-inspect replay-test --until` writes, run in-process on the shipped todo session:
/// it fails with the shrunk steps while the condition is reached.
@MainActor
struct GeneratedRegressionTests {
    @Test func theTodoSessionShrinksToTheWriteThatCompletesTheTenthTodo() throws {
        let replay = try JournalReplay(journal: "samples/journals/todo.jsonl")
        replay.drive(SampleTodo.FilterAtom())
        replay.drive(SampleTodo.NextTodoIDAtom())
        replay.drive(SampleTodo.TodosAtom())
        replay.watch(SampleTodo.FilteredTodosAtom())
        replay.watch(SampleTodo.StatsAtom())
        let directory = try TemporaryDirectory()
        let shrunkPath = directory.path("todo.shrunk.jsonl")
        let failure = try #require(throws: JournalReplayFailure.self) {
            try replay.expectNever("StatsAtom.totalCompleted >= 10", in: AtomTestContext.init, journal: shrunkPath)
        }
        let shrunk = try #require(failure.shrink)
        // The recording first completes ten at step 203; one write of the list is enough, and
        // ten completed todos of it, each as small as a todo decodes.
        #expect(shrunk.kept.map(\.step) == [203])
        let list = try JSONValue.parse(Array(try #require(shrunk.kept.first?.writes.first?.value).utf8))
        #expect(list == .array(Array(repeating: .object(["id": .number(0), "text": .string(""), "isCompleted": .bool(true)]), count: 10)))
        #expect(try ShrinkTests.holdsAtLastStep("StatsAtom.totalCompleted >= 10", in: shrunkPath))
    }
}
