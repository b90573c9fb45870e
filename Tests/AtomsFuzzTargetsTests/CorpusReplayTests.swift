import AtomsInspector
import AtomsJournal
import Foundation
import Testing
@testable import AtomsFuzzTargets

/// Every seed input and every input a fuzzer ever crashed on (`Fuzz/regressions/`, one folder
/// per target) runs through its target: a crash found once stays fixed.
struct CorpusReplayTests {
    private static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    @Test(arguments: ["journal-reader", "journal-summary", "rules", "step-commands", "control-protocol", "dap"])
    func seedsAndRegressionsRunThroughTheirTarget(target: String) throws {
        let run = try #require(FuzzTargets.all[target])
        var inputs = 0
        for kind in ["corpus", "regressions"] {
            for file in FuzzReplay.files(at: Self.fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target).path) {
                let data = try #require(FileManager.default.contents(atPath: file), "\(file)")
                data.withUnsafeBytes(run)
                inputs += 1
            }
        }
        #expect(inputs >= 3, "the seed corpus of \(target) is there")
        // Seeds and fixed regressions are journals every reader agrees on.
        #expect(FuzzFindings.reported.filter { $0.target == target }.map(\.detail) == [])
    }

    @Test func everySeedOfTheSummaryTargetIsAJournalToCount() throws {
        let folder = Self.fuzzFolder.appendingPathComponent("corpus/journal-summary").path
        var versions = Set<Int>()
        for file in FuzzReplay.files(at: folder) {
            let reader = try JournalReader(path: file)
            // Transactions to count; or a torn last line, which opening warns about.
            #expect(reader.lastStep > reader.firstStep || !reader.warnings.isEmpty, "\(file)")
            versions.insert(reader.header.version)
        }
        #expect(versions == [1, 2, 3, 4], "formats 1 to 4")
    }

    /// The journal-summary target also searches each journal with `find` in halves and in
    /// one pass (``FindHalvesCrossCheck``): on most seeds it finds an atom to search for, and
    /// the two agree.
    @Test func theSummaryTargetSearchesItsSeedsInHalves() throws {
        let folder = Self.fuzzFolder.appendingPathComponent("corpus/journal-summary").path
        var searched = 0
        let files = FuzzReplay.files(at: folder)
        for file in files {
            let journal = try InspectedJournal(path: file)
            guard FindHalvesCrossCheck.someAtom(of: journal) != nil else { continue }
            searched += 1
            #expect(FindHalvesCrossCheck.disagreements(at: file).map(\.detail) == [], "\(file)")
        }
        #expect(searched * 4 >= files.count * 3, "\(searched) of \(files.count) seeds searched")
    }

    /// Every seed and regression of the summary target reads alike in any order
    /// (``ReadOrderCrossCheck``): a step a fresh reader reads is read the same by a reader
    /// that read other steps before, in orders of several seeds.
    @Test func everySeedAndRegressionOfTheSummaryReadsAlikeInAnyOrder() throws {
        var compared = 0
        for kind in ["corpus", "regressions"] {
            for file in FuzzReplay.files(at: Self.fuzzFolder.appendingPathComponent("\(kind)/journal-summary").path) {
                for seed in [1, 2, 3] as [UInt64] {
                    #expect(ReadOrderCrossCheck.disagreements(at: file, seed: seed).map(\.detail) == [], "\(file)")
                }
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    @Test func theFixtureJournalOpensWithEveryAtomLive() throws {
        let state = try #require(FuzzFixtures.state)
        #expect(state.liveIDs == [1, 2, 3, 4])
        #expect(FuzzFixtures.everyRule.count == 7)
        #expect(try #require(FuzzFixtures.journal).reader.lastStep == 5, "\(String(describing: FuzzFixtures.journal?.reader.warnings))")
    }
}
