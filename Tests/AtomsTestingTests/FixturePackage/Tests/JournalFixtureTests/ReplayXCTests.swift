import Atoms
import AtomsTesting
import XCTest

/// The replay under XCTest: the same session, the miscounting stats atom failing on purpose.
final class ReplayXCTests: XCTestCase {
    // XCTest on Linux cannot list `@MainActor` test methods; it runs them on the main thread.
    func testReplayPasses() throws {
        let journal = atomJournal(.retainOnFailure(in: TodoSession.folder + "/xctest"))
        try MainActor.assumeIsolated {
            let recorded = try TodoSession.record(to: TodoSession.folder + "/xctest/same.recorded.jsonl")
            try TodoSession.replay(recorded).run(in: AtomTestContext(journal: journal))
        }
    }

    func testReplayFailsOnPurpose() throws {
        let journal = atomJournal(.retainOnFailure(in: TodoSession.folder + "/xctest"))
        try MainActor.assumeIsolated {
            let recorded = try TodoSession.record(to: TodoSession.folder + "/xctest/miscount.recorded.jsonl")
            let context = AtomTestContext(journal: journal)
            context.override(CompletedCountingAtom()) { _ in .miscounting }
            try TodoSession.replay(recorded).run(in: context)
        }
    }
}
