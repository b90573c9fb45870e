import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// A program whose recorder falls a whole hand-over behind waits for it (memory stays bounded),
/// and the journal says how often: the end line counts the waits, and `stats` shows them.
@MainActor
struct RecorderWaitsTests {
    struct TapsAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Int { 0 }
    }

    /// Records a watch and `writes` writes, the recorder taking at most `limit` transactions
    /// at a time; returns the journal's path.
    private func record(writes: Int, handOverLimit limit: Int?, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("taps-\(limit ?? 0).jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.recordsTiming = false
        if let limit {
            recorder.handOverLimit = limit
        }
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(TapsAtom())
        for _ in 0..<writes {
            context[TapsAtom()] += 1
        }
        try recorder.close()
        return path
    }

    @Test func aProgramThatFillsTheHandOverWaitsAndStatsSaysHowOften() throws {
        let directory = try TemporaryDirectory()
        // A hand-over of one transaction is full at each: the program waits at every one.
        let path = try record(writes: 5, handOverLimit: 1, in: directory)
        let end = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last)
        #expect(end.hasPrefix(#"{"type":"end","seq":6,"#) && end.hasSuffix(#","waits":6}"#), "\(end)")

        let journal = try InspectedJournal(path: path)
        #expect(journal.reader.recorderWaits == 6)
        let stats = try StatsCommand.stats(journal)
        #expect(stats.recorderWaits == 6)
        #expect(stats.transactions == 6, "waiting loses no transaction")
        let text = try StatsCommand.run(journal)
        #expect(text.contains("recorder      the program waited 6 times for it to catch up"), "\(text)")
        let state = try journal.state(at: journal.reader.lastStep)
        let taps = try #require(state.liveAtoms.first { $0.displayName == "TapsAtom" })
        #expect(state.values[taps.id]?.v == .number(5))
    }

    @Test func aRecorderThatKeepsUpIsNeverWaitedFor() throws {
        let directory = try TemporaryDirectory()
        let path = try record(writes: 5, handOverLimit: nil, in: directory)
        let end = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last)
        #expect(!end.contains("waits"), "\(end)")
        let journal = try InspectedJournal(path: path)
        #expect(try StatsCommand.stats(journal).recorderWaits == nil)
        #expect(!(try StatsCommand.run(journal)).contains("recorder "))
    }
}
