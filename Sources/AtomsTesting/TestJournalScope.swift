import Atoms
import Synchronization

/// The journals recorded during one test under the `.atomJournal` trait, and whether the test
/// has failed; the trait finishes them as the test ends.
@MainActor
final class TestJournalScope {
    /// The scope of the test running in this task, if its trait records.
    @TaskLocal static var current: TestJournalScope?

    /// The policy for contexts created without one of their own.
    let journal: TestJournal
    /// Set by the trait's issue handler, on any thread.
    nonisolated let failure = FailureFlag()
    private var recordings: [JournalRecording] = []

    init(journal: TestJournal) {
        self.journal = journal
    }

    /// Records a context created in the test with no journal of its own.
    func recordIfNew(_ context: AtomTestContext) {
        guard context.recording == nil else { return }
        JournalRecording.start(context, journal: journal, in: self)
    }

    /// Adds a recording to finish with the test.
    func add(_ recording: JournalRecording) {
        recordings.append(recording)
    }

    /// Finishes every journal: deleted or kept, and for a failed test attached and announced.
    func finish(testFailed: Bool) {
        for recording in recordings where recording.finish(testFailed: testFailed) && testFailed {
            TestJournalNotice.announce(recording)
        }
        recordings.removeAll()
    }
}

/// Whether a test has failed, set from whichever thread records the issue.
final class FailureFlag: Sendable {
    private let failed = Atomic<Bool>(false)

    /// Marks the test failed.
    func set() {
        failed.store(true, ordering: .relaxed)
    }

    /// Whether the test failed.
    var isSet: Bool {
        failed.load(ordering: .relaxed)
    }
}
