import Atoms
import Testing

/// A trait that records the journals of a test's ``Atoms/AtomTestContext``s and keeps them
/// only when the test fails.
///
/// The trait watches the test's issues: a recorded failure (an `#expect` or `#require` that
/// fails, `Issue.record`) or a thrown error marks the test failed. When the test ends, every
/// journal recorded in it is closed; a passing test's journals are deleted (unless recorded
/// with ``TestJournal/always`` or ``TestJournal/path(_:)``), and a failing test's are attached
/// and announced on stderr with the commands that open them.
///
/// Contexts created with ``Atoms/AtomTestContext/init(journal:fileID:line:)`` record with
/// their own policy; other contexts record with the trait's.
///
/// ## Example
/// ```swift
/// @Suite(.atomJournal) @MainActor struct TodoTests {
///     @Test func filter() { let context = AtomTestContext() /* recorded when ATOMS_TEST_JOURNALS is set */ }
/// }
/// ```
public struct AtomJournalTrait: TestTrait, SuiteTrait, TestScoping {
    /// The policy for contexts created without one; `nil` to record them only when
    /// `ATOMS_TEST_JOURNALS` is set.
    let journal: TestJournal?

    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// Runs the test with its journals recorded, then keeps or deletes them.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        let scope = await TestJournalScope(journal: journal ?? .retainOnFailure)
        let failure = scope.failure
        let watcher = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { failure.set() }
            return issue
        }
        // A bare trait with the variable unset records only contexts that ask to be recorded.
        let recordsEveryContext = journal != nil || TestJournalFolder.configured != nil
        let observer: (@MainActor @Sendable (AtomTestContext) -> Void)? = recordsEveryContext ? { @MainActor context in scope.recordIfNew(context) } : nil
        do {
            try await TestJournalScope.$current.withValue(scope) {
                try await TestContextObservation.$didCreate.withValue(observer) {
                    try await watcher.provideScope(for: test, testCase: testCase, performing: function)
                }
            }
        } catch {
            failure.set()
            await scope.finish(testFailed: true)
            throw error
        }
        await scope.finish(testFailed: failure.isSet)
    }
}

extension Trait where Self == AtomJournalTrait {
    /// Records every atom test context of the test (or of each test of the suite) into a
    /// journal kept when the test fails, when the environment variable `ATOMS_TEST_JOURNALS`
    /// names a folder; otherwise only contexts created with `AtomTestContext(journal:)`.
    public static var atomJournal: Self {
        AtomJournalTrait(journal: nil)
    }

    /// Records every atom test context of the test (or of each test of the suite) with
    /// `journal`'s policy, whatever the environment.
    public static func atomJournal(_ journal: TestJournal) -> Self {
        AtomJournalTrait(journal: journal)
    }
}
