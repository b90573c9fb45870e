import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// A write of a value equal to the previous one is recorded as `[id,"="]` whatever the kind of
/// value, so that no reader counts it as a change: objects, arrays, dumps of values that are
/// not `Codable` and asynchronous phases alike. A redacted value is never known equal: each
/// write of it is written as redacted.
@MainActor
struct EqualWriteTests {
    /// Not `Codable`: recorded as a dump.
    struct Palette: Equatable {
        var colors: [String]
    }

    struct PaletteAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Palette { Palette(colors: ["red"]) }
    }

    struct TagsAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> [String] { ["a"] }
    }

    struct PhaseAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> AsyncPhase<Int, Never> { .suspending }
    }

    struct TokenAtom: StateAtom, Hashable, JournalRedacted {
        func defaultValue(context: Context) -> String { "secret" }
    }

    /// The value entries each transaction line holds for `atom`, as written: `"="`, `"v"`,
    /// `"d"`, or `keyed` for an entry that is an object (a dump, a phase, a redacted value).
    private static func entryKinds(of atom: Int, in path: String) throws -> [String] {
        let reader = try JournalReader(path: path)
        var kinds: [String] = []
        for step in (reader.firstStep + 1)...max(reader.firstStep + 1, reader.lastStep) where step <= reader.lastStep {
            let record = try reader.transaction(step, decodingValuesOf: nil)
            for entry in record.values ?? [] where entry.id == atom {
                kinds.append(entry.unchanged == true ? "=" : entry.delta != nil ? "d" : entry.v != nil && entry.phase == nil ? "v" : "keyed")
            }
        }
        return kinds
    }

    @Test func anEqualValueOfEveryKindIsWrittenAsEqual() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("equal.jsonl")
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(PaletteAtom())
        context.watch(TagsAtom())
        context.watch(PhaseAtom())
        context.watch(TokenAtom())
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        context[PaletteAtom()] = Palette(colors: ["red", "blue"])
        context[PaletteAtom()] = Palette(colors: ["red", "blue"])
        context[TagsAtom()] = ["a", "b"]
        context[TagsAtom()] = ["a", "b"]
        context[PhaseAtom()] = .success(3)
        context[PhaseAtom()] = .success(3)
        context[TokenAtom()] = "other"
        context[TokenAtom()] = "other"
        try recorder.close()

        let declarations = try JournalReader(path: path).state(at: JournalReader(path: path).lastStep).declarations
        func number(_ label: String) throws -> Int {
            try #require(declarations.values.first { $0.label == label }?.id, "\(label) in \(declarations.values.map(\.label))")
        }
        #expect(try Self.entryKinds(of: number("PaletteAtom"), in: path) == ["keyed", "="])
        #expect(try Self.entryKinds(of: number("TagsAtom"), in: path).last == "=")
        #expect(try Self.entryKinds(of: number("PhaseAtom"), in: path) == ["keyed", "="])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try Self.entryKinds(of: number("TokenAtom"), in: path) == ["keyed", "keyed"], "\(text)")

        // Read as every reader reads it: the equal write resolves to the value before it.
        let reader = try JournalReader(path: path)
        let last = try reader.state(at: reader.lastStep)
        #expect(last.values[try number("PaletteAtom")]?.dump?.contains("blue") == true)
        #expect(last.values[try number("PhaseAtom")]?.phase == "success")
        #expect(last.values[try number("TokenAtom")]?.redacted == true)
        withExtendedLifetime(context) {}
    }
}
