import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

/// A user's test package (FixturePackage) run through `swift test --parallel`, as CI runs it:
/// its failing test leaves one journal, its passing tests none, and journals of tests that ran
/// side by side hold only their own test's transactions; a replay that fails on purpose, under
/// Swift Testing and under XCTest, names the step, atom and write site and keeps its journals.
struct FixturePackageTests {
    @Test func failingTestLeavesExactlyOneJournalWhoseLastStepShowsTheFailingValue() async throws {
        let run = try await FixtureRun.shared.value
        #expect(run.output.status != 0, "the fixture's failing test fails the run")
        let kept = try FileManager.default.contentsOfDirectory(atPath: run.retained.url.path)
        #expect(kept == ["JournalFixtureTests.RetainedTests.failsOnPurpose.jsonl"])
        let path = run.retained.path("JournalFixtureTests.RetainedTests.failsOnPurpose.jsonl")
        let journal = try InspectedJournal(path: path)
        let state = try journal.state(at: journal.reader.lastStep)
        let counter = try #require(state.liveAtoms.first { $0.label == "CounterAtom" })
        #expect(state.values[counter.id]?.v?.jsonText == "21")
        // As a developer opens it.
        let shown = try await BuiltProducts.run("atoms-inspect", ["show", path, "--at", "last", "--atom", "CounterAtom"])
        #expect(shown.status == 0, "\(shown.stderr)")
        // Its value's line: the step and write site printed above it hold digits too.
        #expect(shown.stdout.split(separator: "\n").contains { $0 == "CounterAtom = 21" }, "\(shown.stdout)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // One line names the journal and the commands that open it.
        let printed = (run.output.stdout + run.output.stderr).split(separator: "\n").filter { $0.contains(path) }
        #expect(printed.count == 1, "\(run.output.stdout)\n\(run.output.stderr)")
        #expect(printed.first?.contains("atoms-inspect step \(path)") == true)
        #expect(printed.first?.contains("atoms-inspect report \(path)") == true)
    }

    @Test func passingTestsLeaveNoJournal() async throws {
        let run = try await FixtureRun.shared.value
        for test in ["passesWithAPlainContext", "passesWithItsOwnJournal"] {
            #expect(run.output.stdout.contains("Test \(test)() passed"), "\(run.output.stdout)")
            #expect(!FileManager.default.fileExists(atPath: run.retained.path("JournalFixtureTests.RetainedTests.\(test).jsonl")))
        }
    }

    @Test func aFailingXCTestCaseKeepsOneJournalNamedAfterItAndAPassingOneNone() async throws {
        let run = try await FixtureRun.shared.value
        let kept = try FileManager.default.contentsOfDirectory(atPath: run.xctest.url.path)
        let name = "JournalFixtureTests.XCTestCaseTests.testFailsOnPurpose.jsonl"
        #expect(kept == [name], "\(run.output.stdout)\n\(run.output.stderr)")
        let path = run.xctest.path(name)
        let journal = try InspectedJournal(path: path)
        let state = try journal.state(at: journal.reader.lastStep)
        let counter = try #require(state.liveAtoms.first { $0.label == "CounterAtom" })
        #expect(state.values[counter.id]?.v?.jsonText == "31")
        let printed = (run.output.stdout + run.output.stderr).split(separator: "\n").filter { $0.contains(path) }
        #expect(printed.count == 1 && printed.first?.contains("atoms-inspect step \(path)") == true, "\(run.output.stderr)")
    }

    @Test func aReplayFailingOnPurposeNamesTheStepAtomAndWriteSiteAndKeepsItsJournals() async throws {
        let run = try await FixtureRun.shared.value
        let folder = run.replay.url.appendingPathComponent("swift-testing").path
        let (recorded, site, toggles) = try Self.recordedSession(in: folder)
        let output = run.output.stdout + run.output.stderr
        #expect(output.contains("Test replaysAgainstTheSameAtoms() passed"), "\(run.output.stdout)")
        // The first toggle completes one todo, which the bug still counts; the second it miscounts.
        #expect(output.contains("replay of \(recorded) failed at step \(toggles[1]) (set at \(site)): StatsAtom — today's value differs from the recorded one"), "\(output)")
        #expect(output.contains("-   \"totalCompleted\": 2\n+   \"totalCompleted\": 1\n"), "\(output)")
        let test = "JournalFixtureTests.ReplayTests.replayAgainstAMiscountingStatsAtomFailsOnPurpose"
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(kept == ["\(test).jsonl", "\(test).replayed.jsonl", "miscount.recorded.jsonl", "same.recorded.jsonl"])
        // The replay's journal shows the divergence at that step.
        let compared = try await BuiltProducts.run("atoms-inspect", ["compare", recorded, "\(folder)/\(test).replayed.jsonl"])
        #expect(compared.status == 1, "\(compared.stderr)")
        #expect(compared.stdout.contains("diverge at step \(toggles[1]) (after \(toggles[1] - 1) matching transactions"), "\(compared.stdout)")
        #expect(compared.stdout.contains("~ StatsAtom"), "\(compared.stdout)")
    }

    @Test func aReplayUnderXCTestFailsItsCaseTheSameWay() async throws {
        let run = try await FixtureRun.shared.value
        let folder = run.replay.url.appendingPathComponent("xctest").path
        let (recorded, site, toggles) = try Self.recordedSession(in: folder)
        let output = run.output.stdout + run.output.stderr
        #expect(output.contains("replay of \(recorded) failed at step \(toggles[1]) (set at \(site)): StatsAtom"), "\(output)")
        let test = "JournalFixtureTests.ReplayXCTests.testReplayFailsOnPurpose"
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(kept == ["\(test).jsonl", "\(test).replayed.jsonl", "miscount.recorded.jsonl", "same.recorded.jsonl"])
    }

    /// The fixture's recorded miscount session in `folder`: its path, the toggles' write site
    /// and their steps.
    private static func recordedSession(in folder: String) throws -> (path: String, site: String, toggles: [Int]) {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FixturePackage/Tests/JournalFixtureTests/ReplayTests.swift"), encoding: .utf8)
        let line = try #require(source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasSuffix("// the toggle") }) + 1
        let site = "JournalFixtureTests/ReplayTests.swift:\(line)"
        let path = "\(folder)/miscount.recorded.jsonl"
        let journal = try InspectedJournal(path: path)
        let toggles = try (1...journal.reader.lastStep).filter { try journal.transaction($0, decodingValuesOf: []).at == site }
        #expect(toggles.count == 3)
        return (path, site, toggles)
    }

    @Test func journalsOfTestsRunningSideBySideNeverMix() async throws {
        let run = try await FixtureRun.shared.value
        let names = try FileManager.default.contentsOfDirectory(atPath: run.always.url.path).sorted()
        #expect(names.count == 6, "\(names)")
        var markers: Set<String> = []
        for name in names {
            let journal = try InspectedJournal(path: run.always.path(name))
            var written: Set<String> = []
            var state = try journal.state(at: journal.reader.firstStep)
            for step in journal.reader.firstStep...journal.reader.lastStep {
                state = try journal.state(at: step)
                if let marker = state.liveAtoms.first(where: { $0.label == "MarkerAtom" }), case .string(let text)? = state.values[marker.id]?.v, !text.isEmpty {
                    written.insert(String(text.split(separator: " ")[0]))
                }
            }
            #expect(written.count == 1, "\(name) holds one test's marker: \(written)")
            #expect(journal.reader.lastStep >= 5, "\(name) holds its test's five writes")
            markers.formUnion(written)
        }
        #expect(markers == ["alpha", "beta", "case-0", "case-1", "case-2", "case-3"])
        #expect(names.contains("JournalFixtureTests.SideBySideTests.alpha.jsonl"))
    }
}

/// The fixture package's one run, shared by the tests above.
private final class FixtureRun: @unchecked Sendable {
    // Unchecked: set once by the run, then only read; the directories are only read.
    let output: BuiltProducts.Run
    /// `ATOMS_TEST_JOURNALS`: where retain-on-failure journals go.
    let retained: TemporaryDirectory
    /// Where the side-by-side tests' journals go.
    let always: TemporaryDirectory
    /// Where the XCTest cases' journals go.
    let xctest: TemporaryDirectory
    /// Where the replay tests' journals go.
    let replay: TemporaryDirectory

    private init(output: BuiltProducts.Run, retained: TemporaryDirectory, always: TemporaryDirectory, xctest: TemporaryDirectory, replay: TemporaryDirectory) {
        self.output = output
        self.retained = retained
        self.always = always
        self.xctest = xctest
        self.replay = replay
    }

    static let shared = Task<FixtureRun, any Error> {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let package = repository.appendingPathComponent("Tests/AtomsTestingTests/FixturePackage").path
        // Under the main build folder, so that a second run rebuilds only what changed.
        let scratch = repository.appendingPathComponent(".build/journal-fixture").path
        let retained = try TemporaryDirectory()
        let always = try TemporaryDirectory()
        let xctest = try TemporaryDirectory()
        let replay = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["ATOMS_TEST_JOURNALS"] = retained.url.path
        environment["FIXTURE_ALWAYS_JOURNALS"] = always.url.path
        environment["FIXTURE_XCTEST_JOURNALS"] = xctest.url.path
        environment["FIXTURE_REPLAY_JOURNALS"] = replay.url.path
        let output = try await Subprocess.run(
            swift, ["test", "--parallel", "--package-path", package, "--scratch-path", scratch],
            environment: environment, timeout: 540
        )
        return FixtureRun(output: output, retained: retained, always: always, xctest: xctest, replay: replay)
    }

    /// The `swift` on PATH.
    private static var swift: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { "\($0)/swift" }.first(where: FileManager.default.isExecutableFile(atPath:)) ?? "/usr/bin/swift"
    }
}
