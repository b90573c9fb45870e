import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Numbers at the edges of what a `Double` holds.
struct NumberEdges: Codable, Equatable, Sendable {
    var intMin = Int.min
    var intMax = Int.max
    var uint64Max = UInt64.max
    var aboveDoublePrecision = (1 << 53) + 1
    var belowDoublePrecision = (1 << 53) - 1
    var sum = 0.1 + 0.2
    var minusZero = -0.0
    var smallestSubnormal = Double.leastNonzeroMagnitude

    /// Equal, and minus zero is still minus zero.
    func isExactly(_ other: NumberEdges) -> Bool {
        self == other && minusZero.sign == other.minusZero.sign
    }
}

struct NumberEdgesAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> NumberEdges { NumberEdges() }
}

/// Every integer of `Int64`/`UInt64` range and every `Double` reads back exactly: the reader's
/// values, state files, and restoring into a running store.
@MainActor
struct ExactNumberTests {
    static let expectedTexts: [String: String] = [
        "intMin": "-9223372036854775808",
        "intMax": "9223372036854775807",
        "uint64Max": "18446744073709551615",
        "aboveDoublePrecision": "9007199254740993",
        "belowDoublePrecision": "9007199254740991",
        "sum": "0.30000000000000004",
        "minusZero": "-0",
        "smallestSubnormal": "5e-324",
    ]

    private func record(in directory: TemporaryDirectory) throws -> JournalReader {
        let path = directory.path("numbers.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(NumberEdgesAtom())
        context[NumberEdgesAtom()].intMax -= 1
        context[NumberEdgesAtom()].intMax += 1
        try recorder.close()
        return try JournalReader(path: path)
    }

    @Test func theReaderKeepsEveryNumberExact() throws {
        let directory = try TemporaryDirectory()
        let journal = try record(in: directory)
        for step in [journal.firstStep + 1, journal.lastStep] {
            let state = try journal.state(at: step)
            guard case .object(let members)? = state.values[1]?.v else {
                Issue.record("no recorded object at step \(step)")
                return
            }
            for (name, text) in Self.expectedTexts {
                #expect(members[name] == .number(JSONNumber(validatedText: text)), "\(name) at step \(step)")
                if case .number(let number)? = members[name] {
                    #expect(number.text == text, "\(name) prints as written")
                }
            }
            #expect(state.values[1]?.v?.jsonText.contains("\"uint64Max\":18446744073709551615") == true)
        }
        // A member edit in between is recorded as a delta of the exact integer.
        let middle = try journal.transaction(journal.firstStep + 2)
        #expect(middle.values?.first?.delta != nil)
    }

    @Test func aStateFileAndARestoreGiveBackTheSameValues() throws {
        let directory = try TemporaryDirectory()
        let journal = try record(in: directory)
        let statePath = directory.path("state.json")
        try StateFile(state: try journal.state(at: journal.lastStep), journal: journal.path).write(to: statePath)
        let text = try String(contentsOfFile: statePath, encoding: .utf8)
        for (_, number) in Self.expectedTexts where number != "-0" {
            #expect(text.contains(number), "the state file holds \(number)")
        }

        let store = AtomStore()
        _ = try store.loadState(from: statePath)
        let loaded = AtomRoot(storesIn: store).viewContext().watch(NumberEdgesAtom())
        #expect(loaded.isExactly(NumberEdges()), "a program started from the state file")

        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(NumberEdgesAtom())
        context[NumberEdgesAtom()] = NumberEdges(intMin: 0, intMax: 0, uint64Max: 0, aboveDoublePrecision: 0, belowDoublePrecision: 0, sum: 0, minusZero: 0, smallestSubnormal: 0)
        try root.store.restore(from: journal, step: journal.lastStep)
        #expect(context.read(NumberEdgesAtom()).isExactly(NumberEdges()), "restored into a running store")
    }

    @Test func numbersParseAndCompareExactly() throws {
        let big = try JSONValue.parse(Array("9007199254740993".utf8))
        let near = try JSONValue.parse(Array("9007199254740992".utf8))
        #expect(big != near)
        #expect(JSONValue.canonicallyPrecedes(near, big))
        #expect(try JSONValue.parse(Array("1".utf8)) == JSONValue.parse(Array("1.0".utf8)))
        #expect(try JSONValue.parse(Array("18446744073709551615".utf8)) != JSONValue.parse(Array("18446744073709551614".utf8)))
        #expect(JSONNumber(-0.0).text == "-0")
        #expect(JSONNumber(0.1 + 0.2).double == 0.1 + 0.2)
        #expect(JSONNumber(text: "01") == nil && JSONNumber(text: "1e5") != nil)
    }
}
