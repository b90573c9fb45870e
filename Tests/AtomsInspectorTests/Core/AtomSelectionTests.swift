import Foundation
import Testing
@testable import AtomsInspector

/// Which atoms a name pattern selects (``AtomSelection``), for `log --atom`, the prompt's `f`
/// and the other commands that take a pattern.
struct AtomSelectionTests {
    /// A damaged journal that declares `FilteredTodosAtom`'s identity again, under the label
    /// `Sttom`, while it is live: either name selects both numbers, as `--where` binds a name
    /// to an identity. (A pattern selected only the number of the label it named, so the
    /// prompt's `f` and full decoding disagreed on which step changed the atom first.)
    @Test func aPatternSelectsEveryNumberOfTheIdentityItNames() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/journal-summary/find-halves-differ-61fccddf6b1bafeb.jsonl").path
        let journal = try InspectedJournal(path: path)
        let last = journal.reader.lastStep
        #expect(try AtomSelection.declared("Sttom", in: journal, through: last).ids == [1, 4])
        #expect(try AtomSelection.declared("FilteredTodosAtom", in: journal, through: last).ids == [1, 4])
        #expect(try AtomSelection.declared("Todos*", in: journal, through: last).ids == [3])
        #expect(try JournalSearch.next(.changes("Sttom"), in: journal, from: journal.reader.firstStep) == .found(1))
    }
}
