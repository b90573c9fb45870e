import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `step`'s `cost`: the transaction that led to the current step, from its timing line.
@MainActor
struct StepCostTests {
    /// The line of the evaluations table naming `atom` (after its indentation).
    private func row(_ output: String, atom: String) -> Substring? {
        output.split(separator: "\n").first { $0.hasSuffix(" " + atom) || $0.contains(" \(atom)  ") }
    }

    /// The first number of a table row: the evaluation's start; the second: how long it took.
    private func microseconds(_ row: Substring) -> [Double] {
        row.split(separator: " ").compactMap { $0.hasSuffix("µs") ? Double($0.dropLast(2)) : nil }
    }

    @Test func anEvaluationNestedInAnotherIsIndentedUnderIt() async throws {
        let directory = try TemporaryDirectory()
        let session = try StepSession(journal: InspectedJournal(path: await ProfiledSession.record(in: directory)))
        #expect(session.handle("find SleepingParentAtom").output.contains("SleepingParentAtom"))
        let output = session.handle("cost").output
        #expect(output.hasPrefix("step \(session.position) took "))
        #expect(output.contains(": runtime ") && output.contains(", observers ") && output.contains(", subscribers "))
        let parent = try #require(row(output, atom: "SleepingParentAtom"))
        let child = try #require(row(output, atom: "SleepingAtom"))
        // Two more spaces before the nested atom's name: its depth is one.
        #expect(child.hasSuffix("    SleepingAtom") && !parent.hasSuffix("    SleepingParentAtom"))
        let parentTimes = microseconds(parent), childTimes = microseconds(child)
        #expect(parentTimes.count == 3 && childTimes.count == 3)
        // The child slept 5 ms inside the parent's evaluation: in the parent's total, not its self.
        #expect(childTimes[1] >= 5_000 && parentTimes[1] >= childTimes[1])
        #expect(parentTimes[2] < parentTimes[1] - 4_999)
    }

    @Test func anEvaluationToAnEqualValueIsMarkedWasted() async throws {
        let directory = try TemporaryDirectory()
        let session = try StepSession(journal: InspectedJournal(path: await ProfiledSession.record(in: directory)))
        // The first write (0 → 2) keeps ParityAtom's value 0.
        _ = session.handle("find ProfiledSourceAtom")
        _ = session.handle("find ProfiledSourceAtom")
        let output = session.handle("cost").output
        #expect(output.contains("(1 wasted: the value was equal to the one before)"))
        #expect(try #require(row(output, atom: "ParityAtom")).hasSuffix("ParityAtom  wasted"))
        #expect(try #require(row(output, atom: "SleepingAtom")).hasSuffix("SleepingAtom"))
        // Its subscribers, told where the view watched them.
        #expect(output.contains("subscriber runs") && output.contains("App/View.swift:3"), "\(output)")
        #expect(output.contains("subscribers told: "))
    }

    @Test func anAsyncResultListsItsTask() async throws {
        let directory = try TemporaryDirectory()
        let session = try StepSession(journal: InspectedJournal(path: await ProfiledSession.record(in: directory)))
        _ = session.handle("last")
        let output = session.handle("cost").output
        #expect(output.contains("async tasks ended: ProfiledPhaseAtom result after "), "\(output)")
    }

    @Test func theFirstStepAndAJournalWithoutTimingSaySoInsteadOfFailing() async throws {
        let directory = try TemporaryDirectory()
        let timed = try StepSession(journal: InspectedJournal(path: await ProfiledSession.record(in: directory)))
        #expect(timed.handle("cost").output == "no cost at step 0: no transaction led here — move forward (next) to see what a transaction cost")
        let untimedPath = try RecordedSessions.long(in: directory, operations: 8, timing: false)
        let untimed = try StepSession(journal: InspectedJournal(path: untimedPath), at: .number(3))
        let output = untimed.handle("cost").output
        #expect(output.hasPrefix("no cost: \(untimedPath) was recorded without timing (format 4.\(JournalFormat.minorVersion), timing off)"))
        #expect(StepSession.help.contains("cost "))
    }
}
