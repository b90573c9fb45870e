import Foundation
import Testing
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Journals recorded by earlier versions of the recorder still read, with the values they
/// recorded: the todo sample's scripted session as format 2 recorded it, against the same
/// session recorded in the current format (`samples/journals/todo.jsonl`).
struct EarlierFormatTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Format 2 (patches) and format 3 (deltas, no locations in keyframes): both open by
    /// reading every line's start, and read the states the current format records.
    @Test(arguments: [("format2-todo", 2), ("format3-todo", 3)])
    func anEarlierJournalReadsTheSameStatesAsTheCurrentFormat(fixture name: String, version: Int) throws {
        let fixture = try #require(Bundle.module.path(forResource: name, ofType: "jsonl", inDirectory: "Journals"))
        let old = try JournalReader(path: fixture)
        let current = try JournalReader(path: Self.repository.appendingPathComponent("samples/journals/todo.jsonl").path)
        #expect(old.header.version == version)
        #expect(current.header.version == JournalFormat.majorVersion)
        #expect(old.firstStep == current.firstStep && old.lastStep == current.lastStep)

        var oldState = try old.state(at: old.firstStep)
        var currentState = try current.state(at: current.firstStep)
        for step in old.firstStep...old.lastStep {
            oldState = try old.advance(oldState, to: step)
            currentState = try current.advance(currentState, to: step)
            #expect(oldState == currentState, "step \(step)")
        }
        // A value a format 2 patch produced, read by number: the todo list at the end.
        let todos = try #require(oldState.liveAtoms.first { $0.label == "TodosAtom" })
        guard case .array(let items)? = oldState.values[todos.id]?.v else {
            Issue.record("TodosAtom is not an array")
            return
        }
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { if case .object(let members) = $0 { members["text"] != nil } else { false } })
    }
}
