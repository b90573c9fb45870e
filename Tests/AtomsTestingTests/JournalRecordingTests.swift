import Atoms
import AtomsInspector
import Foundation
import Testing
import TestSupport
@testable import AtomsTesting

/// What a test context records, and what the `.atomJournal` trait keeps.
@MainActor
struct JournalRecordingTests {
    /// A context that records to `path`, gone (and its journal closed) on return.
    private func record(_ journal: TestJournal) -> String? {
        let context = AtomTestContext(journal: journal)
        context.watch(TopAtom())
        context[SourceAtom()] = 4
        return context.journalPath
    }

    @Test func aPlainContextRecordsNothing() {
        let context = AtomTestContext()
        context[SourceAtom()] = 1
        #expect(context.journalPath == nil)
        #expect(context.recording == nil)
    }

    @Test func aPathJournalOpensWithTheContextsLastValuesAndIsPrivate() throws {
        let directory = try TemporaryDirectory()
        let path = try #require(record(.path(directory.path("top.jsonl"))))
        #expect(path == directory.path("top.jsonl"))
        let journal = try InspectedJournal(path: path)
        let state = try journal.state(at: journal.reader.lastStep)
        let top = try #require(state.liveAtoms.first { $0.label == "TopAtom" })
        #expect(state.values[top.id]?.v?.jsonText == "50")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aJournalInAFolderIsNamedAfterTheTestAndNumberedWhenThereAreMore() throws {
        let directory = try TemporaryDirectory()
        let first = try #require(record(.always(in: directory.url.path)))
        let second = try #require(record(.always(in: directory.url.path)))
        let name = "AtomsTestingTests.JournalRecordingTests.aJournalInAFolderIsNamedAfterTheTestAndNumberedWhenThereAreMore"
        #expect(first == directory.path("\(name).jsonl"))
        #expect(second == directory.path("\(name)-2.jsonl"))
    }

    @Test func theTraitDeletesAPassingTestsJournal() async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.path
        let test = try #require(Test.current)
        nonisolated(unsafe) var path: String?
        try await AtomJournalTrait.atomJournal(.retainOnFailure(in: folder)).provideScope(for: test, testCase: Test.Case.current) {
            path = await self.record(.retainOnFailure(in: folder))
            #expect(path.map(FileManager.default.fileExists(atPath:)) == true, "written while the test runs")
        }
        #expect(path != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func theTraitKeepsTheJournalOfATestThatThrowsAndRecordsItsPlainContexts() async throws {
        struct Failure: Error {}
        let directory = try TemporaryDirectory()
        let folder = directory.url.path
        let test = try #require(Test.current)
        await #expect(throws: Failure.self) {
            try await AtomJournalTrait.atomJournal(.retainOnFailure(in: folder)).provideScope(for: test, testCase: Test.Case.current) {
                await MainActor.run {
                    let context = AtomTestContext()
                    context.watch(MiddleAtom())
                    context[SourceAtom()] = 7
                }
                throw Failure()
            }
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(kept == ["AtomsTestingTests.JournalRecordingTests.theTraitKeepsTheJournalOfATestThatThrowsAndRecordsItsPlainContexts.jsonl"])
        let journal = try InspectedJournal(path: directory.path(kept[0]))
        let state = try journal.state(at: journal.reader.lastStep)
        let middle = try #require(state.liveAtoms.first { $0.label == "MiddleAtom" })
        #expect(state.values[middle.id]?.v?.jsonText == "8")
    }
}
