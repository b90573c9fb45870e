import Atoms
import AtomsJournal
@testable import AtomsJournalReader
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Written by the source's effect.
struct OnePassMirrorAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Its effect writes the mirror on most updates: a transaction started while the source's
/// transaction is still being timed, so that one's timing line comes after the mirror's line.
struct OnePassSourceAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }

    func effect(context: CurrentContext) -> some AtomEffect {
        OnePassMirrorEffect()
    }
}

struct OnePassMirrorEffect: AtomEffect {
    func updated(context: Context) {
        let source = context.read(OnePassSourceAtom())
        if source % 3 != 0 {
            context.set(source, for: OnePassMirrorAtom())
        }
    }
}

struct OnePassDoubledAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(OnePassSourceAtom()) * 2 }
}

/// `profile` reads the transactions and their timing lines in one pass
/// (`JournalReader.forEachTimedTransaction`); it must give what the two readings it replaced
/// gave: the timing lines by `timings(of:)`, the envelopes by `forEachTransaction`.
@MainActor
struct TimedStepsOnePassTests {
    /// Records a session whose effect starts a transaction on most steps, into a file, or a
    /// bounded folder of segments when `limit` is given.
    private func record(to path: String, limit: Int?) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, limit: limit, keyframeInterval: 16, program: "one-pass-tests")
        recorder.attach(to: root.store)
        let view = root.viewContext(fileID: "App/View.swift", line: 3)
        _ = view.watch(OnePassDoubledAtom())
        _ = view.watch(OnePassMirrorAtom())
        for value in 1...600 {
            view.set(value % 7 == 0 ? value - 1 : value, for: OnePassSourceAtom(), at: SourceLocation(fileID: "App/View.swift", line: 10))
        }
        try recorder.close()
        withExtendedLifetime(view) {}
    }

    /// What profile read before: every timing line of `steps` first, then the listing.
    private func twoReadings(_ reader: JournalReader, _ steps: ClosedRange<Int>) throws -> [String] {
        let timings = try reader.timings(of: steps)
        var transactions: [String] = []
        try reader.forEachTransaction(from: steps.lowerBound, through: steps.upperBound) { listed in
            switch listed {
            case .envelope(let envelope):
                guard let timing = timings[envelope.seq] else { return true }
                let unchanged = envelope.atoms.indices.filter { envelope.isEqualWrite(at: $0) }.map { envelope.atoms[$0] }.sorted()
                transactions.append("\(envelope.seq) \(String(decoding: envelope.cause, as: UTF8.self)) \(envelope.location ?? "-") \(envelope.origin) \(unchanged) \(timing)")
            case .record(let record):
                guard let timing = timings[record.seq] else { return true }
                let unchanged = (record.values ?? []).filter { $0.unchanged == true }.map(\.id).sorted()
                transactions.append("\(record.seq) \(record.cause) \(record.at ?? "-") \(record.origin ?? 0) \(unchanged) \(timing)")
            }
            return true
        }
        return transactions
    }

    private func onePass(_ journal: InspectedJournal, _ steps: ClosedRange<Int>) throws -> [String] {
        try TimedSteps.read(journal, steps: steps).transactions.map { transaction in
            "\(transaction.step) \(transaction.cause) \(transaction.at ?? "-") \(transaction.origin) \(transaction.unchanged.sorted()) \(transaction.timing)"
        }
    }

    /// Ranges from a segment's start, from its middle, across segments, one step, the last.
    private func ranges(_ reader: JournalReader) -> [ClosedRange<Int>] {
        let (first, last) = (reader.firstStep + 1, reader.lastStep)
        let middle = (first + last) / 2
        return [first...last, middle...last, first...middle, (middle - 37)...(middle + 81), middle...middle, last...last, (last - 3)...last]
    }

    @Test(arguments: [nil, 24 << 10])
    func oneReadingGivesWhatTwoReadingsGave(limit: Int?) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(limit == nil ? "session.jsonl" : "bounded")
        try record(to: path, limit: limit)
        let journal = try InspectedJournal(path: path)
        let reader = journal.reader
        if limit != nil {
            #expect(try SegmentDirectory.segments(in: path).count >= 3, "a bounded journal of several segments")
        }
        let whole = try TimedSteps.read(journal, steps: (reader.firstStep + 1)...reader.lastStep)
        #expect(whole.transactions.count == reader.lastStep - reader.firstStep)
        #expect(whole.transactions.contains { !$0.timing.subscriberRuns.isEmpty })
        for steps in ranges(reader) {
            let expected = try twoReadings(reader, steps)
            #expect(!expected.isEmpty)
            #expect(try onePass(journal, steps) == expected, "steps \(steps)")
        }
    }

    /// A timing line may come after later transactions' lines (`back` counts them): every
    /// transaction still gets its own, in step order. Made from the todo sample's journal as
    /// recorded in format 4.2 by moving timing lines after the next transaction and its timing line.
    @Test func timingLinesAfterLaterTransactionsReadTheSame() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AtomsJournalTests/Journals/format4.2-todo.jsonl").path
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        func isTransaction(_ index: Int) -> Bool { lines[index].hasPrefix("[") }
        func isTiming(_ index: Int) -> Bool { lines[index].hasPrefix(#"{"type":"t","#) && !lines[index].contains(#""l":"#) && !lines[index].contains(#""d":"#) }
        var moved = 0
        var index = 0
        while index + 3 < lines.count {
            if isTransaction(index), isTiming(index + 1), isTransaction(index + 2), isTiming(index + 3) {
                // transaction, its timing, the next, its timing → transaction, the next, its
                // timing, then the first's timing one transaction back.
                let late = lines[index + 1].replacingOccurrences(of: #"{"type":"t","#, with: #"{"type":"t","d":1,"#)
                lines[index + 1] = lines[index + 2]
                lines[index + 2] = lines[index + 3]
                lines[index + 3] = late
                moved += 1
                index += 4
            } else {
                index += 1
            }
        }
        #expect(moved > 20)
        let directory = try TemporaryDirectory()
        let reordered = try directory.write("reordered.jsonl", lines.joined(separator: "\n") + "\n")
        let (original, journal) = (try InspectedJournal(path: path), try InspectedJournal(path: reordered))
        var order: [Int] = []
        try journal.reader.forEachTimedTransaction(from: 1, through: journal.reader.lastStep, { listed in
            order.append(listed.seq)
            return true
        }, timing: { timing in
            order.append(-timing.seq)
            return true
        })
        let late = order.indices.filter { index in order[index] < 0 && order[..<index].contains(-order[index] + 1) }
        #expect(late.count == moved, "each moved timing line read after the next transaction")
        for steps in ranges(journal.reader) {
            let expected = try onePass(original, steps)
            #expect(!expected.isEmpty)
            #expect(try onePass(journal, steps) == expected, "steps \(steps)")
            #expect(try twoReadings(journal.reader, steps) == expected, "steps \(steps)")
        }
    }

    /// The shipped journals (format 4.2, compact timing lines) read the same in one pass.
    @Test func theShippedJournalsReadTheSame() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/journals")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(files.count >= 4)
        for file in files {
            let journal = try InspectedJournal(path: folder.appendingPathComponent(file).path)
            for steps in ranges(journal.reader) where steps.lowerBound > journal.reader.firstStep {
                #expect(try onePass(journal, steps) == twoReadings(journal.reader, steps), "\(file) steps \(steps)")
            }
        }
    }

    /// A transaction's time, in milliseconds as the journal writes it, becomes nanoseconds
    /// digit by digit exactly as through a `Double`; a time no clock gives is held at ±9 × 10^18
    /// rather than trapping the conversion (every other reader accepts any JSON number).
    @Test func timesReadDigitByDigitAsThroughADouble() throws {
        var random = SeededGenerator(seed: 51)
        var texts = ["0", "1", "0.001", "12.5", "999999999.999", "1000000000.5", "123456789012", "1e3", "-2.5", "0.0000005", "3.1234567", "12.000"]
        for _ in 0..<5_000 {
            let whole = random.next(1_000_000_000)
            let decimals = random.next(7)
            texts.append(decimals == 0 ? "\(whole)" : "\(whole)." + (0..<decimals).map { _ in String(random.next(10)) }.joined())
        }
        for text in texts {
            let expected = Int((Double(text)! * 1_000_000).rounded())
            #expect(Array(text.utf8).withUnsafeBytes(TimingContext.nanoseconds(ofMilliseconds:)) == expected, "\(text)")
        }
        #expect(Array("1e300".utf8).withUnsafeBytes(TimingContext.nanoseconds(ofMilliseconds:)) == 9_000_000_000_000_000_000)
        #expect(Array("-1e300".utf8).withUnsafeBytes(TimingContext.nanoseconds(ofMilliseconds:)) == -9_000_000_000_000_000_000)
    }

    /// A transaction whose time no clock gives (`1e300` ms) is listed, profiled and reported,
    /// not a trap: `log` converted it to whole milliseconds, `profile` to nanoseconds.
    @Test func aTimeNoClockGivesIsReadNotATrap() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/journals/counter.jsonl").path
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let index = try #require(lines.indices.first { $0 > 20 && lines[$0].hasPrefix("[") })
        let parts = lines[index].split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        let step = try #require(Int(parts[0].dropFirst()))
        lines[index] = "\(parts[0]),1e300,\(parts[2])"
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: try directory.write("late.jsonl", lines.joined(separator: "\n") + "\n"))
        let log = try LogCommand.run(journal, options: .init())
        #expect(log.contains("1e+297s"), "\(log)")
        let timed = try TimedSteps.read(journal, steps: step...step)
        #expect(timed.transactions.map(\.step) == [step])
        _ = try ProfileCommand.run(journal, options: .init())
        _ = try ReportCommand.run(journal, graphviz: nil)
    }

    /// Times no clock gives in packed timing lines (numbers near 2^62, which the format
    /// allows) make nonsense totals, never a trap: `profile`, its trace and the report's cost
    /// lane sum them with wrapping arithmetic.
    @Test func timesNoClockGivesInTimingLinesAreNotATrap() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("session.jsonl")
        try record(to: path, limit: nil)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        // Lines with the last line's shape (form 0): their count of numbers stays the same.
        let ended = { (byte: UInt8) in byte >= 0x23 && byte <= 0x4F }
        var replaced = 0
        for index in lines.indices.dropFirst(30) where lines[index].hasPrefix("\"#") && replaced < 5 {
            let count = lines[index].utf8.dropFirst().dropLast().filter(ended).count
            var packed: [UInt8] = [UInt8(ascii: "\"")]
            PackedTimingLine.appendNumber(0, to: &packed)
            for number in 1..<count { PackedTimingLine.appendNumber((1 << 62) + number, to: &packed) }
            packed.append(UInt8(ascii: "\""))
            lines[index] = String(decoding: packed, as: UTF8.self)
            replaced += 1
        }
        #expect(replaced == 5)
        let journal = try InspectedJournal(path: try directory.write("huge.jsonl", lines.joined(separator: "\n") + "\n"))
        let timed = try TimedSteps.read(journal, steps: (journal.reader.firstStep + 1)...journal.reader.lastStep)
        #expect(timed.transactions.count == journal.reader.lastStep - journal.reader.firstStep)
        #expect(timed.transactions.contains { $0.timing.runtime > 1 << 61 })
        _ = try ProfileCommand.run(journal, options: .init())
        _ = try ProfileCommand.trace(journal, options: .init())
        _ = try ReportCommand.run(journal, graphviz: nil)
    }
}
