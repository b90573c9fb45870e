import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The engine of in-order reading: every line after where it starts,
/// once and in order, each as what it is; a visitor that stops before a line leaves the next
/// run there; a damaged line is named by its file and line.
@MainActor
struct StepScanTests {
    struct CountAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Int { 0 }
    }

    struct LabelAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> [String] { [] }
    }

    /// A timed session: counts in the common shape, labels (arrays: deltas, not in it), a
    /// second write site now and then; several times the reader's first buffer (16 KB), so a
    /// scan fills it again.
    private func record(_ path: String) throws {
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(CountAtom())
        context.watch(LabelAtom())
        let recorder = try JournalRecorder(path: path, keyframeInterval: 16)
        recorder.attach(to: root.store)
        for step in 1...1_200 {
            context[CountAtom()] = step
            if step.isMultiple(of: 7) { context[LabelAtom()].append("label \(step)") }
        }
        try recorder.close()
    }

    /// What a line of the file is, from its text alone.
    private enum Expected: Equatable {
        case packedTiming, transaction(Int), other
    }

    private func expected(_ line: Substring) -> Expected {
        if line.hasPrefix("\"") { return .packedTiming }
        if line.hasPrefix("["), let comma = line.firstIndex(of: ","), let seq = Int(line[line.index(after: line.startIndex)..<comma]) {
            return .transaction(seq)
        }
        return .other
    }

    @Test func handsEveryLineOnceInOrderAsWhatItIs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("scan.jsonl")
        try record(path)
        let reader = try JournalReader(path: path)
        let segment = try #require(reader.allSegments.first)
        let scan = try StepScan(segment: segment, transaction: segment.firstStep + 1)
        let start = scan.offset
        var handed: [(offset: Int, line: Expected)] = []
        var envelopes = 0
        try scan.run { line, raw, bytes throws(JournalError) -> StepScan.Verdict in
            switch line {
            case .packedTiming:
                handed.append((bytes.offset, .packedTiming))
            case .envelope(let envelope, let count):
                // Handed once, then again by kind when asked.
                #expect(count >= 1)
                envelopes += 1
                handed.append((bytes.offset, .transaction(envelope.seq)))
                return .readInFull
            case .other(.transaction(let seq)):
                if handed.last?.offset != bytes.offset { handed.append((bytes.offset, .transaction(seq))) }
            case .other(.location):
                let location = try scan.location(in: raw, bytes)
                #expect(scan.locations[location.id] == location.at)
                handed.append((bytes.offset, .other))
            case .other:
                handed.append((bytes.offset, .other))
            }
            return .next
        }
        #expect(scan.offset == segment.dataEnd)
        #expect(segment.dataEnd - start > 64 << 10, "the scan reads past its first buffer")
        // The file's own lines from the first transaction on, as their text says they are.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let bytes = Array(text.utf8)
        var lines: [(offset: Int, line: Expected)] = []
        var offset = start
        while offset < bytes.count {
            let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
            lines.append((offset, expected(Substring(decoding: bytes[offset..<end], as: UTF8.self))))
            offset = end + 1
        }
        #expect(handed.map(\.offset) == lines.map(\.offset))
        #expect(handed.map(\.line) == lines.map(\.line))
        #expect(lines.contains { $0.line == .packedTiming }, "the session is timed")
        #expect(envelopes >= 100, "counts are in the common shape")
        #expect(envelopes < lines.filter { if case .transaction = $0.line { true } else { false } }.count, "label deltas are not")
    }

    @Test func aVisitorThatStopsBeforeALineResumesThere() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("scan.jsonl")
        try record(path)
        let reader = try JournalReader(path: path)
        let segment = try #require(reader.allSegments.first)
        let scan = try StepScan(segment: segment, transaction: 40)
        var seen: [Int] = []
        try scan.run { line, _, _ throws(JournalError) -> StepScan.Verdict in
            guard case .envelope(let envelope, _) = line else { return line.isTransaction ? .stopBefore : .next }
            if envelope.seq == 45 { return .stopBefore }
            try scan.take(.transaction(seq: envelope.seq), at: 0)
            seen.append(envelope.seq)
            return .next
        }
        #expect(seen.first == 40)
        #expect(seen.last.map { $0 < 45 } == true)
        var next: Int?
        try scan.run { line, _, _ throws(JournalError) -> StepScan.Verdict in
            if case .envelope(let envelope, _) = line { next = envelope.seq }
            if case .other(.transaction(let seq)) = line { next = seq }
            return next == nil ? .next : .stopAfter
        }
        #expect(next == (seen.last ?? 0) + 1)
    }

    /// A listing that ends at a step does not read the line after it: a damaged one there is
    /// named only by a listing that goes past it.
    @Test func aListingReadsNoLinePastItsLastStep() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("scan.jsonl")
        try record(path)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let transaction = try #require(lines.firstIndex { $0.hasPrefix("[500,") })
        lines[transaction + 1] = "garbage{"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try JournalReader(path: path)
        var listed: [Int] = []
        try reader.forEachTransaction(from: 490, through: 500) { transaction in
            switch transaction {
            case .envelope(let envelope): listed.append(envelope.seq)
            case .record(let record): listed.append(record.seq)
            }
            return true
        }
        #expect(listed == Array(490...500))
        do {
            try reader.forEachTransaction(from: 490, through: 501) { _ in true }
            Issue.record("the damaged line after step 500 was not read")
        } catch {
            #expect(error.line == transaction + 2, "\(error)")
        }
    }

    @Test func aDamagedLineIsNamedByItsFileAndLine() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("scan.jsonl")
        try record(path)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let damaged = try #require(lines.indices.first { $0 > 20 && lines[$0].hasPrefix("[") })
        lines[damaged] = "{\"type\":\"loc\",\"id\":"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try JournalReader(path: path)
        let segment = try #require(reader.allSegments.first)
        let scan = try StepScan(segment: segment, transaction: segment.firstStep + 1)
        do {
            try scan.run { line, raw, bytes throws(JournalError) -> StepScan.Verdict in
                if case .other(.location) = line { _ = try scan.location(in: raw, bytes) }
                return .next
            }
            Issue.record("the damaged line was read")
        } catch {
            #expect(error.path == path)
            #expect(error.line == damaged + 1, "\(error)")
        }
    }
}

extension StepScan.Line {
    /// Whether the line is a transaction handed by kind.
    fileprivate var isTransaction: Bool {
        if case .other(.transaction) = self { return true }
        return false
    }
}
