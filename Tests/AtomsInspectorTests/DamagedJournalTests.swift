import Atoms
import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

private struct DamageCountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

private struct DamageLabelAtom: ValueAtom, Hashable {
    func value(context: Context) -> String { "count \(context.watch(DamageCountAtom()))" }
}

/// One journal, read one way: a line damaged in the middle of a journal is rejected by every
/// command that reads past it, with the same `file:line` and exit 65.
@MainActor
struct DamagedJournalTests {
    /// The damage done to one transaction line (a newline ends each).
    enum Damage: String, CaseIterable, Sendable {
        case valueNotJSON, timeNotANumber, unknownEntryKind, notUTF8, seqRepeated, seqSkipped, lineCutShort, emptyLine, locationUndeclared

        func apply(to line: String, previous: String) -> [UInt8] {
            switch self {
            case .valueNotJSON: Array(line.replacingOccurrences(of: #""v","#, with: #""v",tru"#).utf8)
            case .timeNotANumber: Array(line.replacingOccurrences(of: #","set""#, with: #"x,"set""#).utf8)
            case .unknownEntryKind: Array(line.replacingOccurrences(of: #""v","#, with: #""x","#).utf8)
            case .notUTF8: Array(line.replacingOccurrences(of: #""set""#, with: #""s\#u{1}et""#).utf8).map { $0 == 1 ? 0xFF : $0 }
            case .seqRepeated: Array(previous.utf8)
            case .seqSkipped: Array(line.replacingOccurrences(of: "[\(line.dropFirst().prefix { $0.isNumber })", with: "[\(Int(line.dropFirst().prefix { $0.isNumber })! + 1)").utf8)
            case .lineCutShort: Array(line.prefix(line.count / 2).utf8)
            case .emptyLine: []
            case .locationUndeclared:
                // The fifth element is the write site's location number.
                Array(line.split(separator: ",", maxSplits: 5, omittingEmptySubsequences: false).enumerated()
                    .map { $0.offset == 4 ? "99" : String($0.element) }.joined(separator: ",").utf8)
            }
        }
    }

    /// A recorded journal's lines.
    private func recordedLines() throws -> [String] {
        let directory = try TemporaryDirectory()
        let path = directory.path("j.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 16, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Damage/Main.swift", line: 4)
        context.watch(DamageLabelAtom())
        for _ in 0..<100 { context[DamageCountAtom()] += 1 }
        try recorder.close()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test(arguments: Damage.allCases)
    func everyCommandRejectsTheSameLine(damage: Damage) throws {
        var lines = try recordedLines()
        // A `set` transaction in the middle, after a keyframe and before another.
        let index = try #require(lines.indices.first { $0 > lines.count / 2 && lines[$0].hasPrefix("[") && lines[$0].contains(#""set""#) && lines[$0].contains(#""v","#) })
        var bytes: [UInt8] = []
        for (number, line) in lines.enumerated() {
            bytes += number == index ? damage.apply(to: line, previous: lines[number - 1]) : Array(line.utf8)
            bytes.append(0x0A)
        }
        lines = []
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", Data(bytes))
        let journal = try InspectedJournal(path: path)
        let step = journal.reader.lastStep
        func outcome(_ body: () throws(InspectorError) -> Void) -> InspectorError? {
            do throws(InspectorError) { try body(); return nil } catch { return error }
        }
        let errors: [String: InspectorError?] = [
            "stats": outcome { () throws(InspectorError) in _ = try StatsCommand.run(journal) },
            "log": outcome { () throws(InspectorError) in _ = try LogCommand.run(journal, options: .init()) },
            "find": outcome { () throws(InspectorError) in _ = try FindCommand.run(journal, where: "DamageCountAtom == \(step + 5)") },
            "blame --history": outcome { () throws(InspectorError) in _ = try BlameCommand.run(journal, atom: "DamageCountAtom", history: true) },
            "report": outcome { () throws(InspectorError) in _ = try ReportCommand.run(journal, graphviz: nil) },
            "compare": outcome { () throws(InspectorError) in _ = try CompareCommand.run(journal, journal) },
        ]
        let expectedLine = index + 1
        for (command, error) in errors {
            guard let error else {
                Issue.record("\(command) read past the damaged line \(expectedLine)")
                continue
            }
            #expect(error.status == .dataError, "\(command): \(error)")
            #expect(error.path == path, "\(command): \(error)")
            #expect(error.line == expectedLine, "\(command): \(error)")
        }
        // The split scan of `stats` on two threads finds it at the same line.
        do {
            _ = try journal.reader.summary()
            Issue.record("summary read past the damaged line")
        } catch {
            #expect(error.line == expectedLine)
        }
    }
}
