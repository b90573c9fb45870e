import Foundation
import Testing
@testable import AtomsFuzzTargets

/// Every seed input and every input a fuzzer ever crashed on (`Fuzz/regressions/`, one folder
/// per target) runs through its target: a crash found once stays fixed.
struct CorpusReplayTests {
    private static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    @Test(arguments: ["journal-reader", "rules", "step-commands"])
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
    }

    @Test func theFixtureJournalOpensWithEveryAtomLive() throws {
        let state = try #require(FuzzFixtures.state)
        #expect(state.liveIDs == [1, 2, 3, 4])
        #expect(FuzzFixtures.everyRule.count == 7)
        #expect(try #require(FuzzFixtures.journal).reader.lastStep == 5, "\(String(describing: FuzzFixtures.journal?.reader.warnings))")
    }
}
