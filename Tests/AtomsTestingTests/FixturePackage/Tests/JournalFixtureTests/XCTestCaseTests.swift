import Atoms
import AtomsTesting
import Foundation
import XCTest

/// XCTest cases recording into the folder `FIXTURE_XCTEST_JOURNALS` names: the failing case
/// keeps its journal, named after the case; the passing one leaves none.
final class XCTestCaseTests: XCTestCase {
    private var folder: String {
        ProcessInfo.processInfo.environment["FIXTURE_XCTEST_JOURNALS"] ?? NSTemporaryDirectory()
    }

    // XCTest on Linux cannot list `@MainActor` test methods; it runs them on the main thread.
    func testPasses() {
        let journal = atomJournal(.retainOnFailure(in: folder))
        MainActor.assumeIsolated {
            let context = AtomTestContext(journal: journal)
            context.watch(DoubledAtom())
            context[CounterAtom()] = 3
            XCTAssertEqual(context.watch(DoubledAtom()), 6)
        }
    }

    func testFailsOnPurpose() {
        let journal = atomJournal(.retainOnFailure(in: folder))
        MainActor.assumeIsolated {
            let context = AtomTestContext(journal: journal)
            context.watch(DoubledAtom())
            context[CounterAtom()] = 30
            context[CounterAtom()] += 1
            // Fails: the counter is 31. Its journal's last step shows it.
            XCTAssertEqual(context.read(CounterAtom()), 32)
        }
    }
}
