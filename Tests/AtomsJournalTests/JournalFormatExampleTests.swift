import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Every example in docs/JOURNAL_FORMAT.md is read by the reader and written again by the
/// writer's own encoders, byte for byte: the specification and the code cannot drift apart.
struct JournalFormatExampleTests {
    static let specification = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/JOURNAL_FORMAT.md")

    /// The ```json blocks of the specification, in order.
    static func examples() throws -> [String] {
        let text = try String(contentsOf: specification, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```json" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The members of a JSON object line, as byte ranges of `raw`.
    private func members(_ raw: UnsafeRawBufferPointer) throws -> [String: Range<Int>] {
        var scanner = JSONScanner(raw)
        var members: [String: Range<Int>] = [:]
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            members[key] = try scanner.skipValue()
        }
        return members
    }

    /// The elements of the JSON array at `range` of `raw`, as byte ranges.
    private func elements(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> [Range<Int>] {
        var scanner = JSONScanner(raw, range: range)
        var elements: [Range<Int>] = []
        try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
            elements.append(try scanner.skipValue())
        }
        return elements
    }

    /// A keyed value entry `{"id":N,…}` written again as a keyframe writes it.
    private func keyedEntry(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> String {
        var scanner = JSONScanner(raw, range: range)
        try scanner.expect(UInt8(ascii: "{"))
        #expect(try scanner.string() == "id")
        try scanner.expect(UInt8(ascii: ":"))
        let id = try scanner.integer()
        try scanner.expect(UInt8(ascii: ","))
        let fields = String(decoding: UnsafeRawBufferPointer(rebasing: raw[scanner.position..<range.upperBound - 1]), as: UTF8.self)
        if fields.hasPrefix(#""v":"#), try members(UnsafeRawBufferPointer(rebasing: raw[range])).count == 2 {
            return EncodedValue.json(bytes: Array(fields.utf8.dropFirst(4)), members: nil).keyedEntry(id: id)
        }
        return EncodedValue.fields(fields).keyedEntry(id: id)
    }

    /// The example written again: read by the reader at its kind, written by the writer.
    private func rewritten(_ example: String) throws -> String {
        let bytes = Array(example.utf8)
        return try bytes.withUnsafeBytes { raw throws -> String in
            let whole = 0..<raw.count
            let scanner = LineScanner(version: JournalFormat.majorVersion)
            if example.hasPrefix(#"{"format":"atoms-journal""#) {
                let header = try LineScanner.header(in: raw, whole, path: "example")
                let line = JournalHeaderLine(created: header.created, keyframeInterval: header.keyframeInterval, program: header.program, limit: header.limit, timed: header.isTimed, startStep: header.startStep ?? 0)
                return line.line(segment: header.segment)
            }
            if example.hasPrefix("[") {
                let parts = try elements(raw, whole)
                if example.dropFirst().first?.isNumber == true, parts.count >= 6 {
                    return String(decoding: try TransactionLine(bytes: raw, range: whole, version: scanner.version).written(from: raw), as: UTF8.self)
                }
                if parts.count >= 2, raw[parts[1].lowerBound] != UInt8(ascii: "\"") {
                    // A positional declaration (4.4): its type by number.
                    var scanner = JSONScanner(raw)
                    let declaration = try scanner.positionalDeclaration()
                    guard case .number(let type) = declaration.type else { return "" }
                    var written: [UInt8] = []
                    PositionalGraph.Declaration(id: declaration.id, type: type, key: declaration.key, label: declaration.label, scope: declaration.scope)
                        .append(to: &written)
                    return String(decoding: written, as: UTF8.self)
                }
                // A value entry: written again inside a transaction line.
                let line = Array(#"[1,0,"set",0,0,["#.utf8) + bytes + Array("]]".utf8)
                return try line.withUnsafeBytes { raw in
                    let written = try TransactionLine(bytes: raw, range: 0..<raw.count, version: scanner.version).written(from: raw)
                    return String(decoding: written.dropFirst(16).dropLast(2), as: UTF8.self)
                }
            }
            let parts = try members(raw)
            if parts["label"] != nil {
                var scanner = JSONScanner(raw)
                return try scanner.atomDeclaration().json
            }
            switch parts["type"].map({ String(decoding: UnsafeRawBufferPointer(rebasing: raw[$0]), as: UTF8.self) }) {
            case #""loc""#?:
                let location = try scanner.location(in: raw, whole)
                return LocationRecord.line(id: location.id, at: location.at)
            case #""end""#?:
                let end = try scanner.end(in: raw, whole)
                return EndRecord.line(seq: end.seq, time: raw[try #require(parts["t"])])
            case #""keyframe""#?:
                let keyframe = try scanner.keyframe(in: raw, whole, decoding: { _ in true }).record
                return KeyframeLine.line(
                    seq: keyframe.seq, atoms: keyframe.atoms.map(\.json),
                    values: try elements(raw, try #require(parts["values"])).map { try keyedEntry(raw, $0) },
                    edges: keyframe.edges.map(\.json), subs: keyframe.subs.map(\.json), locs: (keyframe.locs ?? []).map(\.json)
                )
            case #""timing""#?:
                var written: [UInt8] = []
                try TimingLine(bytes: raw, range: whole).append(to: &written)
                return String(decoding: written.dropLast(), as: UTF8.self)
            case #""t""#?:
                var written: [UInt8] = []
                try CompactTimingLine(bytes: raw, range: whole).append(to: &written)
                return String(decoding: written.dropLast(), as: UTF8.self)
            case #""tx""#?:
                // Version 1: read into the same record a version 4 line gives; written as version 4.
                let record = try LineScanner(version: 1).transaction(in: raw, whole, locations: [:], decoding: { _ in true })
                return try JSONLineOfVersion1(record).text
            case nil where parts["id"] != nil:
                return try keyedEntry(raw, whole)
            default:
                Issue.record("an example of no known kind: \(example)")
                return example
            }
        }
    }

    @Test func everyExampleIsReadAndWrittenBackByteForByte() throws {
        let blocks = try Self.examples()
        #expect(blocks.count >= 8, "the specification's examples were found")
        var lines = 0
        for block in blocks {
            guard !block.hasPrefix("{\n") else {
                // The state file: one pretty-printed document.
                let directory = try TemporaryDirectory()
                let file = try StateFile.read(path: try directory.write("state.json", block + "\n"))
                try file.write(to: directory.path("again.json"))
                let again = try String(contentsOfFile: directory.path("again.json"), encoding: .utf8)
                #expect(again == block + "\n", "written back as \(again)")
                continue
            }
            // Packed timing lines leave out the shape of the one before: read and written in
            // order, a block's lines one segment.
            var (readShape, writtenShape) = (PackedTimingLine.RecentShapes(), PackedTimingLine.RecentShapes())
            for example in block.split(separator: "\n").map(String.init) {
                lines += 1
                if example.hasPrefix("\"") {
                    let bytes = Array(example.utf8)
                    let line = try bytes.withUnsafeBytes { raw in try PackedTimingLine.read(raw, 0..<raw.count, shapes: &readShape) }
                    var written: [UInt8] = []
                    PackedTimingLine.append(line, shapes: &writtenShape, to: &written)
                    #expect(String(decoding: written.dropLast(), as: UTF8.self) == example)
                    continue
                }
                let again = try rewritten(example)
                #expect(again == example, "written back as \(again)")
            }
        }
        #expect(lines >= 15)
    }

    @Test func theVersion1TransactionReadsAsTheVersion4One() throws {
        let blocks = try Self.examples().flatMap { $0.split(separator: "\n").map(String.init) }
        let version1 = try #require(blocks.first { $0.hasPrefix(#"{"type":"tx""#) })
        let version4 = try #require(blocks.first { $0.hasPrefix("[3,") })
        let old = try Array(version1.utf8).withUnsafeBytes { raw in
            try LineScanner(version: 1).transaction(in: raw, 0..<raw.count, locations: [:], decoding: { _ in true })
        }
        let new = try Array(version4.utf8).withUnsafeBytes { raw in
            try LineScanner(version: 4).transaction(in: raw, 0..<raw.count, locations: [1: "App/Main.swift:9"], decoding: { _ in true })
        }
        #expect(old == new)
    }

    /// The positional graph changes (4.4) read to the record the object form of earlier
    /// versions gives: the declared type named by its location line, the label its name gives.
    @Test func thePositionalGraphReadsAsTheObjectForm() throws {
        let blocks = try Self.examples().flatMap { $0.split(separator: "\n").map(String.init) }
        let transactions = blocks.filter { $0.hasPrefix("[5,20.01,") }
        try #require(transactions.count == 2)
        let locations = [1: "App/Main.swift:9", 3: "App.TodosAtom"]
        let records = try transactions.map { line in
            try Array(line.utf8).withUnsafeBytes { raw in
                try LineScanner(version: 4).transaction(in: raw, 0..<raw.count, locations: locations, decoding: { _ in true })
            }
        }
        #expect(records[0] == records[1])
        #expect(records[0].declare == [AtomDeclaration(id: 6, label: "TodosAtom", type: "App.TodosAtom")])
        #expect(records[0].subsAdded == [SubscriptionEntry(atom: 6, at: "App/Main.swift:9")])
    }

    @Test func everyCauseTheRuntimeRecordsIsSpecified() throws {
        let text = try String(contentsOf: Self.specification, encoding: .utf8)
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| 2 `cause` |") })
        for cause in AtomTransaction.Cause.allCases {
            #expect(row.contains("`\(cause.rawValue)`"), "the specification lists the cause \(cause.rawValue)")
        }
    }

    @Test func aCauseTheReaderDoesNotKnowIsReadAsWritten() throws {
        // A later writer's cause: a journal with it reads, without a new version.
        let line = #"[3,18.729,"a-later-cause",1,1,[[1,"v",1]]]"#
        let record = try Array(line.utf8).withUnsafeBytes { raw in
            try LineScanner(version: 4).transaction(in: raw, 0..<raw.count, locations: [1: "App/Main.swift:9"], decoding: { _ in true })
        }
        #expect(record.cause == "a-later-cause" && record.values?.first?.v == .number(1))
    }
}

/// A version 1 transaction object as that version wrote it (members in its order), made from
/// the record it was read into.
private struct JSONLineOfVersion1 {
    let text: String

    init(_ record: TransactionRecord) throws {
        var line = JSONLine()
        line.field("type", record.type)
        line.field("seq", record.seq)
        line.raw("t", String(decoding: try JSONEncoder().encode(record.t), as: UTF8.self))
        line.field("cause", record.cause)
        if let origin = record.origin { line.field("origin", origin) }
        if let at = record.at { line.field("at", at) }
        line.array("values", (record.values ?? []).map { entry in
            var value = JSONLine()
            value.field("id", entry.id)
            if let v = entry.v { value.raw("v", v.jsonText) }
            return value.finished()
        })
        text = line.finished()
    }
}
