/// Whether and where an ``Atoms/AtomTestContext`` records its journal.
///
/// A journal records every transaction of the context's store, in the format every
/// `atoms-inspect` command reads. Journals are named after the test that records them and
/// written to the folder named by `ATOMS_TEST_JOURNALS`, or else to `atoms-test-journals` in
/// the system's temporary folder.
///
/// ## Example
/// ```swift
/// @Test(.atomJournal) @MainActor func filter() throws {
///     let context = AtomTestContext(journal: .retainOnFailure)
///     context[FilterAtom()] = .completed
///     #expect(context.watch(FilteredTodosAtom()).isEmpty)
/// }
/// ```
public struct TestJournal: Sendable, Equatable {
    /// Where the journal is written.
    enum Destination: Sendable, Equatable {
        /// A file named after the test in this folder (`nil`: the configured folder).
        case folder(String?)
        /// Exactly this file.
        case file(String)
    }

    let destination: Destination
    /// Whether the journal stays when its test passes.
    let keepsWhenPassing: Bool

    /// Records the journal and keeps it only when the test fails. Deciding needs the
    /// `.atomJournal` trait on the test or its suite (see ``AtomJournalTrait``); without it the
    /// journal is kept, with a warning.
    public static let retainOnFailure = TestJournal(destination: .folder(nil), keepsWhenPassing: false)

    /// Records the journal and keeps it whatever the test's outcome.
    public static let always = TestJournal(destination: .folder(nil), keepsWhenPassing: true)

    /// ``retainOnFailure``, writing into `folder` rather than the configured one.
    public static func retainOnFailure(in folder: String) -> TestJournal {
        TestJournal(destination: .folder(folder), keepsWhenPassing: false)
    }

    /// ``always``, writing into `folder` rather than the configured one.
    public static func always(in folder: String) -> TestJournal {
        TestJournal(destination: .folder(folder), keepsWhenPassing: true)
    }

    /// Records the journal to exactly `path` (replacing any file there) and keeps it.
    public static func path(_ path: String) -> TestJournal {
        TestJournal(destination: .file(path), keepsWhenPassing: true)
    }
}
