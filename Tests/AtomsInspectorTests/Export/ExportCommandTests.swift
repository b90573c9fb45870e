import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

struct ExportExactNumbersAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [UInt64] { [] }
}

struct ExportNoteAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}

/// `export` in-process: rows, exact values, journal ids, failures, the output folder.
@MainActor
struct ExportCommandTests {
    /// The rows of a JSON Lines table, decoded.
    private func rows(_ table: ExportTable, in directory: String) throws -> [[String: JSONValue]] {
        let text = try String(contentsOfFile: directory + "/" + table.fileName(.ndjson), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8)) }
    }

    /// A session with a number a Double cannot hold, an equal write and text needing quotes.
    private func exactSession(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("exact.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Exact/Writer.swift", line: 7)
        context.watch(ExportExactNumbersAtom())
        context.watch(ExportNoteAtom())
        context[ExportExactNumbersAtom()] = [UInt64.max, 1]
        context[ExportNoteAtom()] = "a, \"quoted\"\nline"
        context[ExportNoteAtom()] = "a, \"quoted\"\nline"
        context[ExportExactNumbersAtom()].append(2)
        try recorder.close()
        withExtendedLifetime(context) {}
        return path
    }

    @Test func everyTransactionAndEveryValueWrittenIsARow() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let output = directory.path("out")
        let summary = try ExportCommand.run([path], to: output, options: .init())
        let journal = try InspectedJournal(path: path)
        let id = ExportCommand.journalID(path: path, header: journal.reader.header)
        #expect(id == "small@\(journal.reader.header.created)")
        #expect(summary.journals == [id])
        #expect(summary.status == .ok)

        let transactions = try rows(.transactions, in: output)
        #expect(transactions.count == journal.reader.transactionCount)
        #expect(transactions.map { $0["step"] } == (1...journal.reader.lastStep).map { .number(JSONNumber($0)) })
        #expect(transactions.allSatisfy { $0["journal"] == .string(id) && $0["duration_ms"] == .null })
        // Every column is present in every row, in the schema's order.
        for table in ExportTable.allCases {
            for row in try rows(table, in: output) {
                #expect(Set(row.keys) == Set(table.columns.map(\.name)))
            }
        }

        // The changes are the log's, atom by atom.
        let changes = try rows(.changes, in: output)
        let log = try LogCommand.entries(journal, options: .init())
        #expect(changes.map { "\($0["step"]!.jsonText) \($0["atom"]!.jsonText)" } == log.flatMap { entry in entry.changed.map { "\(entry.step) \"\($0)\"" } })
        let draft = try #require(changes.last)
        #expect(draft["atom"] == .string("DraftAtom[2]"))
        #expect(draft["key"] == .string("2"))
        #expect(draft["value"] == .string("\"draft\""))
        #expect(draft["site"] == log.last?.at.map(JSONValue.string))
        #expect(draft["site"]?.jsonText.contains("RecordedSessions.swift:") == true)
        #expect(draft["cause"] == .string("set"))

        // Each value is the whole value at that step, as `show` has it.
        let final = try journal.state(at: journal.reader.lastStep)
        let tasks = try #require(final.liveAtoms.first { $0.label == "TasksAtom" })
        let lastTasks = try #require(changes.last { $0["label"] == .string("TasksAtom") })
        #expect(lastTasks["value"] == .string(final.values[tasks.id]!.v!.jsonText))

        let atoms = try rows(.atoms, in: output)
        #expect(atoms.count == final.declarations.count)
        #expect(Set(atoms.map { $0["atom"] }) == Set(final.declarations.values.map { .string($0.displayName) }))
    }

    /// An atom released and declared again under new numbers is one atom: one row of
    /// `atoms`, and its first number in every row of `changes`.
    @Test func anAtomThatCameBackIsOneAtom() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("back.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(ExportExactNumbersAtom())
        for round in 0..<3 {
            context.watch(ExportNoteAtom())
            context[ExportNoteAtom()] = "round \(round)"
            context.unwatch(ExportNoteAtom())
            // Past a keyframe, which forgets the released atom: it comes back under a new number.
            for value in 0..<40 { context[ExportExactNumbersAtom()] = [UInt64(value)] }
        }
        try recorder.close()
        let journal = try InspectedJournal(path: path)
        let numbers = try journal.declarations(through: journal.reader.lastStep).values.filter { $0.label == "ExportNoteAtom" }.map(\.id).sorted()
        #expect(numbers.count == 3, "declared under three numbers")
        let output = directory.path("out")
        _ = try ExportCommand.run([path], to: output, options: .init())
        let atoms = try rows(.atoms, in: output).filter { $0["label"] == .string("ExportNoteAtom") }
        #expect(atoms.map { $0["atom_id"] } == [.number(JSONNumber(numbers[0]))])
        let changes = try rows(.changes, in: output).filter { $0["label"] == .string("ExportNoteAtom") }
        #expect(changes.count >= 3)
        #expect(changes.allSatisfy { $0["atom_id"] == .number(JSONNumber(numbers[0])) })
    }

    @Test func valuesKeepTheirExactTextAndEqualWritesAreMarked() throws {
        let directory = try TemporaryDirectory()
        let path = try exactSession(in: directory)
        let output = directory.path("out")
        _ = try ExportCommand.run([path], to: output, options: .init())
        let changes = try rows(.changes, in: output)
        let numbers = changes.filter { $0["label"] == .string("ExportExactNumbersAtom") }.map { $0["value"] }
        #expect(numbers == [.string("[]"), .string("[18446744073709551615,1]"), .string("[18446744073709551615,1,2]")])
        let notes = changes.filter { $0["label"] == .string("ExportNoteAtom") }
        #expect(notes.map { $0["unchanged"] } == [.bool(false), .bool(false), .bool(true)])
        #expect(notes.map { $0["created"] } == [.bool(true), .bool(false), .bool(false)])
        #expect(notes.last?["value"] == .string(#""a, \"quoted\"\nline""#))
        let transactions = try rows(.transactions, in: output)
        #expect(transactions.map { $0["unchanged"] }.contains(.number(1)))
    }

    @Test func csvQuotesAsRFC4180AndTellsNullFromEmpty() throws {
        let directory = try TemporaryDirectory()
        let path = try exactSession(in: directory)
        let output = directory.path("out")
        _ = try ExportCommand.run([path], to: output, options: .init(format: .csv))
        let text = try String(contentsOfFile: output + "/changes.csv", encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first == ExportTable.changes.columns.map(\.name).joined(separator: ","))
        #expect(lines.last == "")
        // The note's value: JSON text holding a comma, quotes and a line break, quoted once
        // more for CSV with its quotes doubled.
        #expect(text.contains(#","""a, \""quoted\""\nline""","#))
        // The note's first value is the empty string: `""` in JSON, quoted for CSV with its
        // quotes doubled; a null key or scope is an empty field.
        #expect(text.contains(#",ExportNoteAtom,ExportNoteAtom,AtomsInspectorTests.ExportNoteAtom,,,"""""",,,false,false,true,initialize,"#))
        _ = try ExportCommand.run([path], to: output + "-json", options: .init())
        // One record per line: the value's line break is escaped in its JSON text.
        #expect(lines.dropFirst().filter { !$0.isEmpty }.count == (try rows(.changes, in: output + "-json")).count)
    }

    @Test func fromAndToExportTheStepsLogLists() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let output = directory.path("out")
        _ = try ExportCommand.run([path], to: output, options: .init(from: .number(4), to: .number(6)))
        #expect(try rows(.transactions, in: output).map { $0["step"] } == [.number(4), .number(5), .number(6)])
        #expect(try rows(.changes, in: output).allSatisfy { [.number(4), .number(5), .number(6)].contains($0["step"]) })
        // The atoms known at the start are declared at the step before the first exported.
        #expect(try rows(.atoms, in: output).contains { $0["declared_step"] == .number(3) })
    }

    @Test func aJournalThatFailsIsNamedLeftOutAndTheOthersAreExported() throws {
        let directory = try TemporaryDirectory()
        let good = try RecordedSessions.small(in: directory)
        // A copy damaged at its seventh line: its first transactions read, then it fails.
        var lines = try String(contentsOfFile: good, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[6] = "[not json"
        let damaged = directory.path("damaged.jsonl")
        try lines.joined(separator: "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        let missing = directory.path("missing.jsonl")
        let output = directory.path("out")
        var reported: [InspectorError] = []
        let summary = try ExportCommand.run([damaged, good, missing], to: output, options: .init(), failure: { reported.append($0) })

        #expect(reported.map(\.description) == summary.failed.map(\.error))
        #expect(reported.first?.description.hasPrefix("atoms-inspect: \(damaged):7: error: ") == true)
        #expect(reported.map(\.status) == [.dataError, .noInput])
        #expect(summary.status == .dataError)
        #expect(summary.journals.count == 1)
        // None of the damaged journal's rows stay, though it read some before failing.
        for table in ExportTable.allCases {
            let journals = Set(try rows(table, in: output).map { $0["journal"] })
            #expect(journals == [.string(summary.journals[0])], "\(table)")
        }
    }

    @Test func anOutputFolderWithFilesIsRefusedUnlessForced() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let output = directory.path("out")
        _ = try ExportCommand.run([path], to: output, options: .init(format: .csv))
        try "keep".write(toFile: output + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(throws: InspectorError.self) { try ExportCommand.run([path], to: output, options: .init()) }
        do {
            _ = try ExportCommand.run([path], to: output, options: .init())
        } catch {
            #expect(error.status == .cannotCreate)
            #expect(error.message.contains("--force"))
        }
        _ = try ExportCommand.run([path], to: output, options: .init(force: true))
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(files == ["atoms.ndjson", "changes.ndjson", "notes.txt", "transactions.ndjson"])
    }

    @Test func theSameJournalTwiceIsRefusedTheSecondTime() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let summary = try ExportCommand.run([path, path], to: directory.path("out"), options: .init())
        #expect(summary.journals.count == 1)
        #expect(summary.failed.map(\.status) == [ExitStatus.usage.rawValue])
    }

    @Test func aBoundedJournalExportsLikeAFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bounded")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, limit: 16 << 10, keyframeInterval: 16, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Bounded/Writer.swift", line: 3)
        context.watch(ExportNoteAtom())
        for index in 0..<2_000 {
            context[ExportNoteAtom()] = "note \(index) " + String(repeating: "x", count: index % 50)
        }
        try recorder.close()
        withExtendedLifetime(context) {}
        let journal = try InspectedJournal(path: path)
        #expect(journal.reader.segmentCount > 1)
        #expect(journal.reader.droppedTransactions > 0)

        let output = directory.path("out")
        let summary = try ExportCommand.run([path], to: output, options: .init())
        #expect(summary.journals == ["bounded@\(journal.reader.header.created)"])
        let transactions = try rows(.transactions, in: output)
        #expect(transactions.count == journal.reader.transactionCount)
        #expect(transactions.first?["step"] == .number(JSONNumber(journal.reader.firstStep + 1)))
        let last = try #require(try rows(.changes, in: output).last)
        #expect(last["value"] == .string(JSONValue.string("note 1999 " + String(repeating: "x", count: 1_999 % 50)).jsonText))
    }
}
