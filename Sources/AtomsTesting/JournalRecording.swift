import Atoms
import AtomsJournal
import Foundation

/// The journal of one test context: its recorder, its file, and whether the file outlives a
/// passing test. The context keeps it (``Atoms/AtomTestContext``'s `recording`).
@MainActor
final class JournalRecording: TestContextRecording {
    /// The journal's path.
    let path: String
    /// The test that recorded it, as the file is named.
    let testName: String
    private let keepsWhenPassing: Bool
    private let recorder: JournalRecorder
    private var isClosed = false
    private var isFinished = false

    /// Starts recording `context`'s store into a new journal.
    ///
    /// - Throws: When the folder or file cannot be created.
    init(_ context: AtomTestContext, journal: TestJournal, testName: String) throws {
        switch journal.destination {
        case .folder(let folder):
            path = try TestJournalFolder.path(for: testName, in: folder ?? TestJournalFolder.current)
        case .file(let file):
            path = URL(fileURLWithPath: file).standardizedFileURL.path
        }
        self.testName = testName
        keepsWhenPassing = journal.keepsWhenPassing
        recorder = try JournalRecorder(path: path, program: testName)
        recorder.attach(to: context.atomStore)
    }

    /// Writes everything recorded so far to the file, for reading it back mid-test.
    func flush() throws {
        try recorder.flush()
    }

    /// Ends the journal as its context goes away, at the state the test left: the releases
    /// of the context's watches that follow are not recorded.
    func contextWillEnd() {
        close()
    }

    /// Closes the journal once; a failure to write it is a warning naming the file.
    private func close() {
        guard !isClosed else { return }
        isClosed = true
        do {
            try recorder.close()
        } catch {
            TestJournalNotice.warn("the journal of \(testName) at \(path) is incomplete: \(error) — check that its folder is writable and has space")
        }
    }

    /// Ends the journal as its test ends: closes it, then deletes it when the test passed and
    /// it is not kept anyway.
    ///
    /// - Returns: Whether the file is kept.
    @discardableResult
    func finish(testFailed: Bool) -> Bool {
        guard !isFinished else { return FileManager.default.fileExists(atPath: path) }
        isFinished = true
        close()
        if testFailed || keepsWhenPassing {
            return true
        }
        try? FileManager.default.removeItem(atPath: path)
        return false
    }
}

extension JournalRecording {
    /// Starts recording `context` with `journal`, kept by the context and finished by `scope`
    /// (the test's `.atomJournal` trait) when there is one. A journal that cannot be created
    /// is a warning naming the path and what to do; the test goes on unrecorded.
    static func start(_ context: AtomTestContext, journal: TestJournal, in scope: TestJournalScope?) {
        guard let recording = start(context, journal: journal, named: TestName.current(creatingAt: context.location)) else {
            return
        }
        if let scope {
            scope.add(recording)
        } else if !journal.keepsWhenPassing {
            TestJournalNotice.warn("\(recording.testName) records with .retainOnFailure but has no .atomJournal trait to tell whether it fails — add @Test(.atomJournal) or @Suite(.atomJournal); the journal is kept at \(recording.path)")
        }
    }

    /// Starts recording `context` into a journal named `name`, kept by the context; `nil`, after
    /// a warning naming the path and what to do, when the journal cannot be created (the test
    /// goes on unrecorded).
    static func start(_ context: AtomTestContext, journal: TestJournal, named name: String) -> JournalRecording? {
        let recording: JournalRecording
        do {
            recording = try JournalRecording(context, journal: journal, testName: name)
        } catch {
            let place = switch journal.destination {
            case .folder(let folder): "in \(folder ?? TestJournalFolder.current)"
            case .file(let file): "at \(file)"
            }
            TestJournalNotice.warn("cannot record the journal of \(name) \(place): \(error) — set \(TestJournalFolder.variable) to a writable folder")
            return nil
        }
        context.recording = recording
        return recording
    }
}
