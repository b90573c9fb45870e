import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Readers pay only for what they read: a command that does not use timing knows a timing line
/// by its prefix and skips it unparsed, so a timing line damaged after its prefix changes
/// nothing it prints, while `profile`, which reads timing, names the damaged line.
struct TimingLinesSkippedTests {
    static let todo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/journals/todo.jsonl").path
    /// The todo sample's session as recorded in format 4.2 (its timing lines objects).
    static let format42Todo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AtomsJournalTests/Journals/format4.2-todo.jsonl").path

    @Test func aTimingLineDamagedAfterItsPrefixIsReadOnlyByTheReadersOfTiming() throws {
        let directory = try TemporaryDirectory()
        var lines = try String(contentsOfFile: Self.format42Todo, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A 4.2 timing line in the middle of the journal: its first number made not JSON.
        let timingLines = lines.indices.filter { lines[$0].hasPrefix(#"{"type":"t","#) && lines[$0].contains(#""p":["#) }
        let index = try #require(timingLines.dropFirst(timingLines.count / 2).first)
        lines[index] = lines[index].replacingOccurrences(of: #""p":["#, with: #""p":[x"#)
        try expectOnlyTheReadersOfTimingSee(lines, damagedAt: index, original: Self.format42Todo, in: directory)
    }

    /// The same with the packed timing lines of 4.3, recorded now: a byte that is not a digit
    /// after a line's first byte.
    @Test func aPackedTimingLineDamagedAfterItsFirstByteIsReadOnlyByTheReadersOfTiming() async throws {
        let directory = try TemporaryDirectory()
        let original = directory.path("recorded.jsonl")
        let script = try String(contentsOfFile: Self.todo.replacingOccurrences(of: ".jsonl", with: ".commands"), encoding: .utf8)
        let run = try await BuiltProducts.run("sample-todo", ["--journal", original], stdin: script)
        #expect(run.status == 0)
        var lines = try String(contentsOfFile: original, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let timingLines = lines.indices.filter { lines[$0].hasPrefix("\"") }
        #expect(timingLines.count > 20)
        let index = try #require(timingLines.dropFirst(timingLines.count / 2).first)
        lines[index].insert(" ", at: lines[index].index(after: lines[index].startIndex))
        try expectOnlyTheReadersOfTimingSee(lines, damagedAt: index, original: original, in: directory)
    }

    /// `lines` are `original`'s with line `index` (0-based) damaged: every reader but
    /// `profile` reads them as it reads `original`, and `profile` names that line.
    private func expectOnlyTheReadersOfTimingSee(_ lines: [String], damagedAt index: Int, original originalPath: String, in directory: TemporaryDirectory) throws {
        let path = directory.path("damaged.jsonl")
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let (original, damaged) = (try InspectedJournal(path: originalPath), try InspectedJournal(path: path))

        #expect(try LogCommand.run(damaged, options: .init()) == LogCommand.run(original, options: .init()))
        #expect(try ShowCommand.run(damaged) == ShowCommand.run(original))
        #expect(try StatsCommand.stats(damaged).transactions == StatsCommand.stats(original).transactions)
        for expression in ["StatsAtom.total >= 2", "FilterAtom == \"completed\""] {
            #expect(try FindCommand.find(damaged, where: expression).steps.map(\.step) == FindCommand.find(original, where: expression).steps.map(\.step))
        }

        #expect(throws: Never.self) { try ProfileCommand.run(original, options: .init()) }
        let error = try #require(throws: InspectorError.self) { try ProfileCommand.run(damaged, options: .init()) }
        #expect(error.path == path && error.line == index + 1, "\(error)")
    }
}
