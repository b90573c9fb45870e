import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

@MainActor
struct ProfileTests {
    @Test func aSleepingAtomShowsItsSelfTimeInsideItsParent() async throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: await ProfiledSession.record(in: directory))
        let profile = try ProfileCommand.profile(journal, options: .init())
        let sleeping = try #require(profile.atoms.first { $0.atom == "SleepingAtom" })
        let parent = try #require(profile.atoms.first { $0.atom == "SleepingParentAtom" })
        // Its first evaluation and one per write: each slept 5 ms.
        #expect(sleeping.evaluations == 1 + ProfiledSession.writes.count)
        #expect(sleeping.selfNs >= sleeping.evaluations * 5_000_000)
        #expect(sleeping.maxNs >= 5_000_000)
        // The parent's first evaluation evaluated SleepingAtom inside it.
        #expect(parent.maxNs >= 5_000_000)
        #expect(parent.totalNs >= 5_000_000)
        #expect(parent.totalNs - parent.selfNs >= 5_000_000, "the nested evaluation is the parent's, not its self time")
        #expect(profile.atoms.first?.atom == "SleepingAtom", "sorted by self time")
        let text = try ProfileCommand.run(journal, options: .init())
        #expect(text.contains("SleepingAtom") && text.contains("slowest transactions"))
    }

    @Test func anEvaluationProducingAnEqualValueIsWasted() async throws {
        let directory = try TemporaryDirectory()
        let path = try await ProfiledSession.record(in: directory)
        let journal = try InspectedJournal(path: path)
        let profile = try ProfileCommand.profile(journal, options: .init(atom: "Parity*"))
        #expect(profile.atoms.map(\.atom) == ["ParityAtom"])
        let parity = try #require(profile.atoms.first)
        // 0 → 2 → 4 keep the parity 0 (two equal values), 5 makes it 1, 7 keeps it.
        #expect(parity.evaluations == 5)
        #expect(parity.wasted == 3)
        #expect(profile.totals.wasted == 3)
        #expect(parity.notifications == 4, "each recomputation told its subscriber")
    }

    @Test func evaluationCountsAgreeWithTheRecordedChanges() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.long(in: directory, operations: 60, timing: true))
        let profile = try ProfileCommand.profile(journal, options: .init())
        let reader = journal.reader
        var entries: [Int: Int] = [:]
        var equal: [Int: Int] = [:]
        for step in (reader.firstStep + 1)...reader.lastStep {
            for value in try journal.transaction(step, decodingValuesOf: []).values ?? [] {
                entries[value.id, default: 0] += 1
                if value.unchanged == true { equal[value.id, default: 0] += 1 }
            }
        }
        let names = try journal.declarations(through: reader.lastStep)
        // Derived atoms: every evaluation (the first, and each recomputation) writes a value
        // entry, and only then.
        for derived in ["VisibleTasksAtom", "TaskCountAtom"] {
            let id = try #require(names.values.first { $0.label == derived }?.id)
            let cost = try #require(profile.atoms.first { $0.atom == derived })
            #expect(cost.evaluations == entries[id], "\(derived)")
            #expect(cost.wasted == equal[id, default: 0], "\(derived)")
        }
        #expect(profile.totals.transactions == reader.transactionCount)
    }

    @Test func theTraceFollowsTheTraceEventFormatsRules() async throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: await ProfiledSession.record(in: directory))
        let trace = Data(try ProfileCommand.trace(journal, options: .init()))
        #expect(TraceValidator.problems(in: trace) == [])
        let text = String(decoding: trace, as: UTF8.self)
        #expect(text.contains(#""name":"set App/View.swift:10","cat":"transaction","ph":"X""#))
        #expect(text.contains(#""name":"SleepingAtom","cat":"evaluation""#))
        #expect(text.contains(#""cat":"subscriber""#))
        #expect(text.contains(#""name":"ProfiledPhaseAtom","cat":"task""#) && text.contains(#""outcome":"result""#))
        // The same trace from the same journal.
        #expect(Data(try ProfileCommand.trace(journal, options: .init())) == trace)
    }

    @Test func theValidatorRejectsBrokenTraces() {
        let unsorted = #"{"traceEvents":[{"name":"a","ph":"X","ts":5,"dur":1,"pid":1,"tid":1},{"name":"b","ph":"X","ts":2,"dur":1,"pid":1,"tid":1}]}"#
        let noDuration = #"{"traceEvents":[{"name":"a","ph":"X","ts":1,"pid":1,"tid":1}]}"#
        let unpaired = #"{"traceEvents":[{"name":"a","ph":"B","ts":1,"pid":1,"tid":1},{"name":"t","cat":"task","id":"1","ph":"b","ts":2,"pid":1,"tid":1}]}"#
        let overlapping = #"{"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":5,"pid":1,"tid":1},{"name":"b","ph":"X","ts":2,"dur":9,"pid":1,"tid":1}]}"#
        for broken in [unsorted, noDuration, unpaired, overlapping] {
            #expect(!TraceValidator.problems(in: Data(broken.utf8)).isEmpty, "\(broken)")
        }
    }

    @Test func aJournalWithoutTimingIsBadDataNotZeros() throws {
        let format3 = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../AtomsJournalTests/Journals/format3-todo.jsonl").standardized.path
        let directory = try TemporaryDirectory()
        // A format 4.0 journal: this recorder's output without its timing lines.
        let recorded = try String(contentsOfFile: RecordedSessions.small(in: directory), encoding: .utf8)
        let format40 = directory.path("format40.jsonl")
        let lines = recorded.split(separator: "\n").filter { !$0.hasPrefix(#"{"type":"t""#) }
            .map { $0.replacingOccurrences(of: #""minor":2"#, with: #""minor":0"#) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: format40, atomically: true, encoding: .utf8)
        for path in [format3, format40] {
            let journal = try InspectedJournal(path: path)
            let error = try #require(throws: InspectorError.self) { try ProfileCommand.run(journal, options: .init()) }
            #expect(error.status == .dataError)
            #expect(error.description.contains("recorded without timing"))
            #expect(throws: InspectorError.self) { try ProfileCommand.trace(journal, options: .init()) }
        }
    }

    @Test func stepsAndPatternsAreResolvedAsLogResolvesThem() async throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: await ProfiledSession.record(in: directory))
        let ranged = try ProfileCommand.profile(journal, options: .init(from: .number(5), to: .number(6)))
        #expect(ranged.totals.transactions == 2)
        #expect(ranged.slowest.allSatisfy { (5...6).contains($0.step) })
        #expect(throws: InspectorError.self) { try ProfileCommand.profile(journal, options: .init(atom: "NoSuchAtom")) }
        let json = try ProfileCommand.run(journal, options: .init(json: true))
        #expect(json.contains(#""selfNs""#) && json.contains(#""wasted""#))
    }
}
