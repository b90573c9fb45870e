import Foundation
import Testing
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Journals recorded by earlier versions of the recorder still read, with the values they
/// recorded: the todo sample's scripted session as formats 2, 3, 4.1 and 4.2 recorded it, and
/// the movies sample's as 4.3 did, against the same sessions recorded in the current format
/// (`samples/journals/`).
struct EarlierFormatTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Format 2 (patches) and format 3 (deltas, no locations in keyframes) open by reading
    /// every line's start; format 4.1 spells subscribers' locations out in graph changes, 4.2
    /// names them by number in a graph object. Each reads the states the current format records.
    @Test(arguments: [("format2-todo", 2), ("format3-todo", 3), ("format4.1-todo", 4), ("format4.2-todo", 4)])
    func anEarlierJournalReadsTheSameStatesAsTheCurrentFormat(fixture name: String, version: Int) throws {
        let fixture = try #require(Bundle.module.path(forResource: name, ofType: "jsonl", inDirectory: "Journals"))
        let old = try JournalReader(path: fixture)
        let current = try JournalReader(path: Self.repository.appendingPathComponent("samples/journals/todo.jsonl").path)
        #expect(old.header.version == version)
        #expect(version < JournalFormat.majorVersion || old.header.minor < JournalFormat.minorVersion)
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

    /// A 4.3 journal (graph changes as objects, declarations whole, timing lines packed) reads
    /// the states of the movies session recorded now, at every step.
    @Test func aFormat43JournalReadsTheSameStatesAsTheCurrentFormat() throws {
        let fixture = try #require(Bundle.module.path(forResource: "format4.3-movies", ofType: "jsonl", inDirectory: "Journals"))
        let old = try JournalReader(path: fixture)
        let current = try JournalReader(path: Self.repository.appendingPathComponent("samples/journals/movies.jsonl").path)
        #expect(old.header.minor == 3 && current.header.minor == JournalFormat.minorVersion)
        #expect(try String(contentsOfFile: fixture, encoding: .utf8).contains(#""declare":[{"id":1,"#))
        #expect(old.firstStep == current.firstStep && old.lastStep == current.lastStep)
        var (oldState, currentState) = (try old.state(at: old.firstStep), try current.state(at: current.firstStep))
        for step in old.firstStep...old.lastStep {
            oldState = try old.advance(oldState, to: step)
            currentState = try current.advance(currentState, to: step)
            #expect(oldState == currentState, "step \(step)")
        }
    }

    /// The same transactions, subscriptions included, from a 4.1 journal (subscribers'
    /// locations spelled out), a 4.2 one (by location number, in graph objects) and the one
    /// shipped (4.4: positional lists, declared types by location number).
    @Test func aFormat41JournalReadsTheSameTransactionsAsTheCurrentFormat() throws {
        let fixture = try #require(Bundle.module.path(forResource: "format4.1-todo", ofType: "jsonl", inDirectory: "Journals"))
        let old = try JournalReader(path: fixture)
        let format42 = try #require(Bundle.module.path(forResource: "format4.2-todo", ofType: "jsonl", inDirectory: "Journals"))
        let between = try JournalReader(path: format42)
        let current = try JournalReader(path: Self.repository.appendingPathComponent("samples/journals/todo.jsonl").path)
        #expect(old.header.minor == 1 && between.header.minor == 2 && current.header.minor == 4)
        let oldText = try String(contentsOfFile: fixture, encoding: .utf8)
        let betweenText = try String(contentsOfFile: format42, encoding: .utf8)
        let currentText = try String(contentsOfFile: current.path, encoding: .utf8)
        #expect(oldText.contains(#""subsAdded":[{"atom":1,"at":"#) && !oldText.contains(#","loc":"#))
        #expect(betweenText.contains(#""subsAdded":[{"atom":1,"loc":"#))
        #expect(!currentText.contains(#""subsAdded""#) && !currentText.contains(#""declare""#) && currentText.contains(#"{"type":"loc","id":3,"at":"SampleTodo.FilteredTodosAtom"}"#))
        var subscriptions = 0
        for step in (old.firstStep + 1)...old.lastStep {
            var (read, between, expected) = (try old.transaction(step), try between.transaction(step), try current.transaction(step))
            (read.t, between.t, expected.t) = (0, 0, 0)
            #expect(read == expected && between == expected, "transaction \(step)")
            subscriptions += (read.subsAdded ?? []).count + (read.subsRemoved ?? []).count
        }
        #expect(subscriptions > 0)
    }
}
