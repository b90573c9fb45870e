@testable import AtomsJournal
@testable import AtomsJournalReader
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// One meaning: at every step of each shipped journal and of a hostile one, the page's own
/// state module (run under Node by `Web/print-states.js`) rebuilds what `show --json` prints —
/// the same atoms in the same order, each value's text byte for byte, and the same marks.
@MainActor
@Suite(.enabled(if: ReportWebTests.node != nil, "node is not installed (apt-get install nodejs): the page's state was not checked against show"))
struct ReportDifferentialTests {
    /// The live atoms at one step: `[name, text, marks]` each.
    typealias Printed = ShowPrinted.Atoms

    @Test(arguments: ["counter", "movies", "numpad", "todo"])
    func everyStepOfTheSampleJournalMatchesShow(sample: String) async throws {
        try await compare(ReportWebTests.repository.appendingPathComponent("samples/journals/\(sample).jsonl").path)
    }

    @Test func everyStepOfTheHostileJournalMatchesShow() async throws {
        let directory = try TemporaryDirectory()
        let path = try HostileSessions.values(in: directory)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Every delta kind, and deltas nested in arrays, dictionary entries and set-holding atoms.
        for delta in [#"["o","#, #"["a","#, #"["s","#, #"["m","#, #"["a",[[0,["a","#, #"[0,["o","#] {
            #expect(text.contains(delta), "the hostile journal holds \(delta)")
        }
        try await compare(path)
    }

    @Test func everyStepOfTheHostileNamesJournalMatchesShow() async throws {
        let directory = try TemporaryDirectory()
        try await compare(try HostileSessions.names(in: directory))
    }

    private func compare(_ path: String) async throws {
        let journal = try InspectedJournal(path: path)
        let first = journal.reader.firstStep, last = journal.reader.lastStep
        let pageStates = try await statesFromThePage(journal, first: first, last: last)
        #expect(pageStates.count == last - first + 1)
        for (offset, page) in pageStates.enumerated() {
            let step = first + offset
            let shown = try ShowPrinted.atoms(journal, at: step)
            #expect(!shown.isEmpty || step == first, "step \(step) of \(path) has live atoms")
            // Bytes, not `String ==` (which would equate canonically equivalent texts).
            let bytes = { (atoms: Printed) in atoms.map { $0.map { Array($0.utf8) } } }
            let same = bytes(page) == bytes(shown)
            #expect(same, "step \(step) of \(path): the page has \(page.filter { !shown.contains($0) }), show \(shown.filter { !page.contains($0) })")
        }
    }

    /// What `print-states.js` prints for the report data of `first…last`.
    private func statesFromThePage(_ journal: InspectedJournal, first: Int, last: Int) async throws -> [Printed] {
        var builder = ReportBuilder(journal: journal, first: first, last: last, sizeLimit: .max)
        let data = try builder.build { graphs in graphs.map { _ in nil } }
        let directory = try TemporaryDirectory()
        _ = try directory.write("meta.json", Data(data.meta))
        _ = try directory.write("values.txt", Data(data.values))
        _ = try directory.write("keyframes.txt", Data(data.keyframes))
        let driver = ReportWebTests.tests.appendingPathComponent("print-states.js").path
        let run = try await TimedProcess.run(try #require(ReportWebTests.node), [driver, directory.url.path], timeout: 60)
        try #require(run.status == 0, "print-states.js failed: \(run.stderr)")
        return try run.stdout.split(separator: "\n").enumerated().map { index, line in
            guard case .object(let members) = try JSONValue.parse(Array(line.utf8)),
                  members["step"] == .number(JSONNumber(first + index)),
                  case .array(let atoms)? = members["atoms"] else {
                throw InspectorError(.dataError, path: driver, "line \(index + 1) is not the step \(first + index): \(line)")
            }
            return atoms.map { atom in
                guard case .array(let fields) = atom else { return [] }
                return fields.map { if case .string(let text) = $0 { text } else { "" } }
            }
        }
    }
}
