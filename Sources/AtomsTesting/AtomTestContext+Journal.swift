import Atoms

extension AtomTestContext {
    /// Creates a test context with a fresh store whose every transaction is recorded into a
    /// journal, named after the current test.
    ///
    /// With ``TestJournal/retainOnFailure``, the journal of a test that passes is deleted when
    /// the test ends, and a failing test's is kept, attached to the test and announced with
    /// the commands that open it. Telling the two apart needs the `.atomJournal` trait on the
    /// test or its suite.
    ///
    /// ## Example
    /// ```swift
    /// @Test(.atomJournal) @MainActor func increments() {
    ///     let context = AtomTestContext(journal: .retainOnFailure)
    ///     context[CounterAtom()] += 1
    ///     #expect(context.watch(CounterAtom()) == 1)
    /// }
    /// ```
    public init(journal: TestJournal, fileID: String = #fileID, line: UInt = #line) {
        // This context's own journal, not the one a trait would give every new context.
        self = TestContextObservation.$isPaused.withValue(true) {
            AtomTestContext(fileID: fileID, line: line)
        }
        JournalRecording.start(self, journal: journal, in: TestJournalScope.current)
    }

    /// The path of the journal this context records, or `nil` when it records none.
    public var journalPath: String? {
        (recording as? JournalRecording)?.path
    }
}
