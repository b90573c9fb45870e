import Atoms
import AtomsInspector
import Foundation
import Testing
import TestSupport
@testable import AtomsTesting

/// The checks a test calls on a recording context.
@MainActor
struct JournalCheckTests {
    @Test func checkGraphAgreesWithAtomsInspectCheckOnTheSameJournalAndRules() throws {
        let directory = try TemporaryDirectory()
        let rules = """
            edge SourceAtom -> MiddleAtom
            edge TopAtom -> SourceAtom
            no-edge MiddleAtom -> TopAtom
            node Top*
            no-node NameAtom
            acyclic
            max-depth 2
            max-depth 3
            max-nodes 2
            """
        let rulesFile = try directory.write("graph.rules", rules)
        let context = AtomTestContext(journal: .path(directory.path("graph.jsonl")))
        context.watch(TopAtom())
        context[SourceAtom()] = 2
        let journalPath = try #require(context.journalPath)
        try context.checkGraph("max-depth 3")

        let viaAPI = try JournalChecks.graphResults(InspectedJournal(path: journalPath), rules: rules, named: rulesFile)
        let viaCommand = try CheckCommand.run(InspectedJournal(path: journalPath), rules: rulesFile)
        #expect(viaAPI.results == viaCommand.results)
        #expect(viaAPI.results.map(\.passed) == [true, false, false, true, true, true, false, true, false])

        let failure = try #require(throws: JournalCheckFailure.self) { try context.checkGraph(rules) }
        #expect(failure.step == 2)
        #expect(failure.journal == journalPath)
        #expect(failure.description.contains("max-depth 2 — longest chain has 3 atoms: SourceAtom -> MiddleAtom -> TopAtom"))
        #expect(failure.description.contains("at step 2"))
        #expect(failure.description.contains("atoms-inspect step \(journalPath)"))
    }

    @Test func checkChangesCountsNewValuesNotTheFirstOneNorEqualWrites() throws {
        let directory = try TemporaryDirectory()
        let context = AtomTestContext(journal: .path(directory.path("changes.jsonl")))
        context.watch(TopAtom())
        context[SourceAtom()] = 1
        context[SourceAtom()] = 1
        context[SourceAtom()] = 2
        try context.checkChanges(of: SourceAtom(), count: 2)
        try context.checkChanges(of: TopAtom(), count: 2)
        let failure = try #require(throws: JournalCheckFailure.self) { try context.checkChanges(of: SourceAtom(), count: 1) }
        #expect(failure.description.hasPrefix("checkChanges(of: SourceAtom, count: 1) failed at step 4: it changed 2 times (steps 2, 4)"))
        #expect(failure.step == 4)
    }

    @Test func checkNoWriteNamesTheStepOfTheWriteAfter() throws {
        let directory = try TemporaryDirectory()
        let context = AtomTestContext(journal: .path(directory.path("order.jsonl")))
        context.watch(SourceAtom())
        context.watch(NameAtom())
        context[SourceAtom()] = 1
        try context.checkNoWrite(to: SourceAtom(), after: NameAtom())
        context[NameAtom()] = "done"
        try context.checkNoWrite(to: SourceAtom(), after: NameAtom())
        context[SourceAtom()] = 2
        let failure = try #require(throws: JournalCheckFailure.self) { try context.checkNoWrite(to: SourceAtom(), after: NameAtom()) }
        #expect(failure.step == 5)
        #expect(failure.description.contains("step 5 wrote SourceAtom after step 4 wrote NameAtom"))
    }

    @Test func aMalformedRuleNamesTheRuleAndTheJournal() throws {
        let directory = try TemporaryDirectory()
        let context = AtomTestContext(journal: .path(directory.path("rules.jsonl")))
        let failure = try #require(throws: JournalCheckFailure.self) { try context.checkGraph("max-depth four") }
        #expect(failure.description.contains("'max-depth' needs a whole number, got 'four'"))
        #expect(failure.journal == context.journalPath)
    }

    @Test func checksOnAContextThatRecordsNothingSayHowToRecord() {
        let context = AtomTestContext()
        let failure = #expect(throws: JournalCheckFailure.self) { try context.checkGraph("acyclic") }
        #expect(failure?.description == "checkGraph(\"acyclic\") failed: this AtomTestContext records no journal — create it with AtomTestContext(journal: .retainOnFailure)")
    }
}
