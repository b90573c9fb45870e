import Foundation
import Testing
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Sets and dictionaries are written in the canonical order the format defines, whatever
/// order hashing gives them (which differs from one process to the next).
struct CanonicalOrderTests {
    private func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try #require(ValueEncoder().json(of: value)).bytes, as: UTF8.self)
    }

    @Test func setsAreWrittenInCanonicalOrder() throws {
        // Built in different orders, so their storage differs; the text does not.
        let names = ["pear", "apple", "fig", "banana", "kiwi", "cherry", "date", "elderberry"]
        let forward = Set(names)
        var backward = Set<String>(minimumCapacity: 64)
        for name in names.reversed() { backward.insert(name) }
        #expect(try text(forward) == #"["apple","banana","cherry","date","elderberry","fig","kiwi","pear"]"#)
        #expect(try text(backward) == text(forward))
        #expect(try text(Set([3, -1, 20, 0])) == "[-1,0,3,20]")
        #expect(try text(Set([Item(id: 2, name: "b", tags: [], score: nil), Item(id: 1, name: "z", tags: [], score: nil)]))
            .hasPrefix(#"[{"id":1,"#))
    }

    @Test func dictionariesWithAnyKeyAreWrittenInCanonicalOrder() throws {
        let byColor: [Color: Int] = [.red: 1, .blue: 2, .magenta: 3, .cyan: 4]
        #expect(try text(byColor) == #"["blue",2,"cyan",4,"magenta",3,"red",1]"#)
        let byString = ["b": 1, "a": 2, "c": 3]
        #expect(try text(byString) == #"{"a":2,"b":1,"c":3}"#)
        let byDouble: [Double: String] = [2.5: "x", -1: "y", 10: "z"]
        #expect(try text(byDouble) == #"[-1,"y",2.5,"x",10,"z"]"#)
    }
}
