import AtomsJournal
import Testing
@testable import AtomsTesting

/// A driven array's next value from a recorded delta, decoding only what changed.
struct RecordedArrayPatchTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    private let todos = [
        ReplayTodo(id: 1, text: "a", isCompleted: false),
        ReplayTodo(id: 2, text: "b", isCompleted: false),
        ReplayTodo(id: 3, text: "c", isCompleted: false),
    ]

    @Test func changesOfElementsDecodeThoseElementsFromTheRecordedValue() throws {
        let after = try json(#"[{"id":1,"text":"a","isCompleted":false},{"id":2,"text":"b","isCompleted":true},{"id":3,"text":"c","isCompleted":false}]"#)
        let patched = try todos.patched(by: [try json(#"[1,["o",{"isCompleted":true}]]"#)], resolved: after)
        #expect(patched?.map(\.isCompleted) == [false, true, false])
    }

    @Test func splicesDecodeTheInsertedValues() throws {
        let after = try json(#"[{"id":2,"text":"b","isCompleted":false},{"id":3,"text":"c","isCompleted":false},{"id":4,"text":"d","isCompleted":false}]"#)
        let patched = try todos.patched(by: [try json("[0,1,[]]"), try json(#"[2,0,[{"id":4,"text":"d","isCompleted":false}]]"#)], resolved: after)
        #expect(patched?.map(\.id) == [2, 3, 4])
    }

    @Test func otherShapesAndDeltasThatDoNotFitAreLeftToAWholeDecode() throws {
        let after = try json(#"[{"id":1,"text":"a","isCompleted":true}]"#)
        #expect(try todos.patched(by: [try json(#"[0,["o",{"isCompleted":true}]]"#), try json("[1,2,[]]")], resolved: after) == nil)
        #expect(try todos.patched(by: [try json("[5,1,[]]")], resolved: after) == nil)
        // The length after the delta disagrees with the recorded value.
        #expect(try todos.patched(by: [try json(#"[0,["o",{"isCompleted":true}]]"#)], resolved: after) == nil)
    }
}
