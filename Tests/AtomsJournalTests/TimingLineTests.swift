import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

@MainActor
struct TimingLineTests {
    private static let line = #"{"type":"timing","seq":5,"start":100,"runtime":40,"observers":3,"effects":0,"subscribers":2,"evals":[[3,1,30,0],[4,2,20,1]],"later":{"x":[1]}}"#

    @Test func aFormat4ReaderSkipsTimingLinesAsAnUnknownType() throws {
        let bytes = Array(Self.line.utf8)
        let kind = try bytes.withUnsafeBytes { raw in
            try LineScanner(version: 4).kind(of: 0..<raw.count, in: raw, verify: true)
        }
        #expect(kind == .unknown)
        var check = SequenceCheck()
        try check.take(.keyframe(seq: 0))
        try check.take(.transaction(seq: 1))
        try check.take(kind)
        try check.take(.transaction(seq: 2))
    }

    @Test func membersALaterVersionAddsAreSkipped() throws {
        let bytes = Array(Self.line.utf8)
        let timing = try bytes.withUnsafeBytes { raw in try TimingLine(bytes: raw, range: 0..<raw.count) }
        #expect(timing.seq == 5 && timing.runtime == 40 && timing.evaluations.map(\.depth) == [0, 1])
        var written: [UInt8] = []
        timing.append(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == Self.line.replacingOccurrences(of: #","later":{"x":[1]}"#, with: "") + "\n")
    }

    @Test func aRecordedJournalHasATimingLinePerTransactionAndReadsAsBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("timed.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 2)
        recorder.recordsTiming = true
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(TimedCounterAtom())
        for value in 1...5 {
            context.set(value, for: TimedCounterAtom(), at: SourceLocation(fileID: "App/Main.swift", line: 9))
        }
        try recorder.close()
        let reader = try JournalReader(path: path)
        #expect(reader.header.minor == JournalFormat.minorVersion && reader.header.timed == nil && reader.recordsTimings)
        #expect(reader.transactionCount == 6)
        let timings = try reader.timings(of: 1...6)
        #expect(timings.keys.sorted() == [1, 2, 3, 4, 5, 6])
        #expect(timings[1]?.evaluations.count == 1, "the state atom's first value")
        #expect(timings[2]?.subscriberRuns.count == 1, "its subscriber was told")
        #expect(try reader.state(at: 6).values.count == 1)
    }
}

private struct TimedCounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}
