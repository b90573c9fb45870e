import Atoms
import Synchronization
import XCTest

/// The journal of an XCTest case: named after the case, and ended as the case tears down.
///
/// Make it with ``XCTest/XCTestCase/atomJournal(_:)`` in the test method, then record a context
/// with ``Atoms/AtomTestContext/init(journal:fileID:line:)-(XCTestJournal,_,_)``. It is `Sendable`, so it
/// reaches the main actor where the context lives.
public final class XCTestJournal: Sendable {
    let journal: TestJournal
    let testName: String
    private let recordings = Mutex<[JournalRecording]>([])

    init(journal: TestJournal, testName: String) {
        self.journal = journal
        self.testName = testName
    }

    /// Adds a context's recording, finished at teardown.
    func add(_ recording: JournalRecording) {
        recordings.withLock { $0.append(recording) }
    }

    /// Ends every journal of the case: deleted when it passed and is not kept anyway; kept,
    /// announced and attached when it failed.
    @MainActor
    func finish(testFailed: Bool) {
        for recording in recordings.withLock({ $0 }) where recording.finish(testFailed: testFailed) && testFailed {
            TestJournalNotice.announce(recording)
        }
    }
}

extension XCTestCase {
    /// A journal for this test case's atom test contexts, named after the case
    /// (`Module.Class.testMethod`) and ended as the case tears down. With
    /// ``TestJournal/retainOnFailure`` it is deleted then when the case passed; a failing case
    /// keeps it and prints one line with its path and the commands that open it.
    ///
    /// ## Example
    /// ```swift
    /// final class CounterTests: XCTestCase {
    ///     func testIncrement() {
    ///         let journal = atomJournal(.retainOnFailure)
    ///         // XCTest on Linux cannot list `@MainActor` test methods; it runs them on the main thread.
    ///         MainActor.assumeIsolated {
    ///             let context = AtomTestContext(journal: journal)
    ///             context[CounterAtom()] += 1
    ///             XCTAssertEqual(context.watch(CounterAtom()), 1)
    ///         }
    ///     }
    /// }
    /// ```
    public func atomJournal(_ journal: TestJournal = .retainOnFailure) -> XCTestJournal {
        let testJournal = XCTestJournal(journal: journal, testName: TestName.of(self))
        addTeardownBlock { [unowned self] in
            // (`hasSucceeded` is false until the run stops, after teardown.)
            let failed = (testRun?.totalFailureCount ?? 0) > 0
            // XCTest tears a case down on the thread it ran on: the main thread.
            MainActor.assumeIsolated {
                testJournal.finish(testFailed: failed)
            }
        }
        return testJournal
    }
}

extension AtomTestContext {
    /// Creates a test context with a fresh store whose every transaction is recorded into an
    /// XCTest case's journal (see ``XCTest/XCTestCase/atomJournal(_:)``).
    public init(journal: XCTestJournal, fileID: String = #fileID, line: UInt = #line) {
        self = TestContextObservation.$isPaused.withValue(true) {
            AtomTestContext(fileID: fileID, line: line)
        }
        if let recording = JournalRecording.start(self, journal: journal.journal, named: journal.testName) {
            journal.add(recording)
        }
    }
}

extension TestName {
    /// An XCTest case's name: its module-qualified class and its method
    /// (`CounterTests.CounterTests.testIncrement`).
    static func of(_ testCase: XCTestCase) -> String {
        let type = String(reflecting: Swift.type(of: testCase))
        // XCTest names a case `Class.method` on Linux and `-[Class method]` on Apple platforms.
        let method = testCase.name.split(whereSeparator: { " .]".contains($0) }).last.map(String.init) ?? testCase.name
        return fileSafe("\(type).\(method)")
    }
}
