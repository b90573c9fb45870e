import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// A format 4 journal opens without reading its middle: steps are found by binary search, and
/// locations from the keyframe before them. Whatever the order of reading, the answers are
/// the ones reading from the start gives.
@MainActor
struct SeekingTests {
    /// 2,000 increments, and 50 watchers created at 50 sites along the way (each watch is a
    /// transaction at its watcher's site), so location lines sit between keyframes all
    /// through the file.
    private func recordWithManySites(to path: String) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 32, program: "seek-test")
        recorder.attach(to: root.store)
        var watchers: [AtomViewContext] = []
        for index in 0..<2_000 {
            if index % 40 == 0 {
                let line = UInt(10 + index / 40)
                let watcher = root.viewContext(fileID: "Seek/Main.swift", line: line)
                watcher.watch(SlotAtom(slot: index / 40), fileID: "Seek/Main.swift", line: line)
                if index == 0 { watcher.watch(CountAtom(), fileID: "Seek/Main.swift", line: line) }
                watchers.append(watcher)
            }
            watchers[0][CountAtom()] += 1
        }
        try recorder.close()
        withExtendedLifetime(watchers) {}
    }

    @Test func stepsReadInAnyOrderMatchReadingFromTheStart() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("seek.jsonl")
        try recordWithManySites(to: path)
        let journal = try JournalReader(path: path)
        #expect(journal.header.version == 4 && journal.isEnded)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // 51 write sites and subscribers' locations, and the two atom types' names.
        #expect(text.split(separator: "\n").filter { $0.hasPrefix(#"{"type":"loc""#) }.count == 53)

        // From the start, in order: the reference.
        var states: [JournalState] = []
        var transactions: [TransactionRecord] = []
        var state = try journal.state(at: 0)
        states.append(state)
        for step in 1...journal.lastStep {
            transactions.append(try journal.apply(step, to: &state, decodingValuesOf: nil))
            states.append(state)
        }
        #expect(Set(transactions.compactMap(\.at)).count == 51)
        // A fresh reader each time, so nothing is left from reading before.
        var random = SeededGenerator(seed: 42)
        for _ in 0..<60 {
            let step = random.next(journal.lastStep + 1)
            let fresh = try JournalReader(path: path)
            #expect(try fresh.state(at: step) == states[step], "state \(step)")
            if step > 0 {
                #expect(try JournalReader(path: path).transaction(step) == transactions[step - 1], "transaction \(step)")
            }
        }
        // One reader, jumping back and forth.
        for _ in 0..<200 {
            let step = 1 + random.next(journal.lastStep)
            #expect(try journal.transaction(step) == transactions[step - 1], "transaction \(step)")
        }
        let counted = try journal.keyframeSteps
        #expect(counted.first == 0 && counted.count > 10)
        #expect(try journal.summary().keyframes == counted.count)
    }

    @Test func theSummaryCountsWhatTheTransactionsSay() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("seek.jsonl")
        try recordWithManySites(to: path)
        let journal = try JournalReader(path: path)
        var causes: [String: Int] = [:]
        var writes: [Int: Int] = [:]
        for step in 1...journal.lastStep {
            let record = try journal.transaction(step, decodingValuesOf: [])
            causes[record.cause, default: 0] += 1
            for value in record.values ?? [] { writes[value.id, default: 0] += 1 }
        }
        let summary = try journal.summary()
        #expect(summary.causes == causes && summary.valueWrites == writes)
        // Scanned in two halves on two threads, joined where they meet: the same counts.
        #expect(try journal.summary(splittingAbove: 1 << 10) == summary)
        #expect(summary.firstTime == (try journal.transaction(1).t))
        #expect(summary.lastTime == (try journal.transaction(journal.lastStep).t))
        // Format 3 (scanned when opened) gives the same kind of summary.
        let old = try JournalReader(path: try #require(Bundle.module.path(forResource: "format3-todo", ofType: "jsonl", inDirectory: "Journals")))
        #expect(try old.summary().causes.values.reduce(0, +) == old.transactionCount)
    }
}
