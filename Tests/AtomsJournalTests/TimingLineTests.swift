import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

@MainActor
struct TimingLineTests {
    private static let line = #"{"type":"timing","seq":5,"start":100,"runtime":40,"observers":3,"effects":0,"subscribers":2,"evals":[[3,1,30,0],[4,2,20,1]],"later":{"x":[1]}}"#
    private static let compactLine = #"{"type":"t","l":[1,"App/Main.swift:9"],"d":1,"p":[40,3],"v":[3,1,30,0,4,2,20,1],"e":[3,5],"s":[1,2,1,4],"n":[3,2],"k":[3,-500,35,1],"later":{"x":[1]}}"#

    @Test func aFormat4ReaderSkipsTimingLinesAsAnUnknownType() throws {
        for line in [Self.line, Self.compactLine] {
            let bytes = Array(line.utf8)
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
    }

    @Test func membersALaterVersionAddsAreSkipped() throws {
        let bytes = Array(Self.line.utf8)
        let timing = try bytes.withUnsafeBytes { raw in try TimingLine(bytes: raw, range: 0..<raw.count) }
        #expect(timing.seq == 5 && timing.runtime == 40 && timing.evaluations.map(\.depth) == [0, 1])
        var written: [UInt8] = []
        timing.append(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == Self.line.replacingOccurrences(of: #","later":{"x":[1]}"#, with: "") + "\n")
    }

    @Test func aCompactLineIsReadWrittenBackAndResolvedAgainstItsTransaction() throws {
        let bytes = Array(Self.compactLine.utf8)
        let line = try bytes.withUnsafeBytes { raw in try CompactTimingLine(bytes: raw, range: 0..<raw.count) }
        #expect(line.back == 1 && line.runtime == 40 && line.observers == 3)
        var written: [UInt8] = []
        line.append(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == Self.compactLine.replacingOccurrences(of: #","later":{"x":[1]}"#, with: "") + "\n")
        // Transaction 7 began 1 ms after recording started.
        let timing = line.timing(seq: 7, start: 1_000_000, origin: 9, locations: [1: "App/Main.swift:9"])
        #expect(timing.seq == 7 && timing.start == 1_000_000)
        #expect(timing.effects == 5 && timing.subscribers == 6, "the phases are the sums of their runs")
        #expect(timing.effectRuns == [TimingLine.Run(atom: 3, at: "", start: 43, duration: 5)])
        #expect(timing.subscriberRuns == [
            TimingLine.Run(atom: 0, at: "App/Main.swift:9", start: 48, duration: 2),
            TimingLine.Run(atom: 0, at: "App/Main.swift:9", start: 50, duration: 4),
        ], "subscribers run one after the other, after the effects")
        #expect(timing.notified.map(\.atom) == [3] && timing.notified.map(\.count) == [2])
        #expect(timing.tasks == [TimingLine.TaskSpan(atom: 3, start: 999_500, end: 1_000_035, committed: true)])
    }

    @Test func withoutNotifiedTheOriginToldEverySubscriberListed() throws {
        let bytes = Array(#"{"type":"t","p":[250,300],"s":[1,40]}"#.utf8)
        let line = try bytes.withUnsafeBytes { raw in try CompactTimingLine(bytes: raw, range: 0..<raw.count) }
        let timing = line.timing(seq: 3, start: 0, origin: 2, locations: [:])
        #expect(timing.notified.map(\.atom) == [2] && timing.notified.map(\.count) == [1])
        #expect(line.timing(seq: 3, start: 0, origin: 0, locations: [:]).notified.isEmpty, "no origin: nothing to say")
    }

    @Test func aRecordedJournalHasATimingLinePerTransactionAndReadsAsBefore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("timed.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 2)
        #expect(recorder.recordsTiming, "on by default")
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
        #expect(timings[2]?.subscriberRuns.first?.at.hasPrefix("AtomsJournalTests/TimingLineTests.swift:") == true, "the view context's location")
        #expect(timings[2]?.subscriberRuns.count == 1, "its subscriber was told")
        #expect(timings[2]?.notified.map(\.count) == [1], "by the atom written")
        for seq in 1...6 {
            #expect(try reader.timing(of: seq) == timings[seq], "one step read alone reads as in a pass")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("\"") }
        #expect(lines.count == 6)
        #expect(try reader.state(at: 6).values.count == 1)
    }

    @Test func timingAddsItsLinesAndChangesNoOtherByte() throws {
        func recorded(timing: Bool) throws -> [String] {
            let root = AtomRoot()
            let sink = InMemoryJournalSink()
            let recorder = JournalRecorder(sink: sink, keyframeInterval: 3)
            recorder.recordsTiming = timing
            recorder.attach(to: root.store)
            let context = root.viewContext(fileID: "App/View.swift", line: 2)
            _ = context.watch(TimedDoubledAtom(), fileID: "App/View.swift", line: 3)
            for value in 1...10 {
                context.set(value, for: TimedCounterAtom(), at: SourceLocation(fileID: "App/Main.swift", line: 9))
            }
            try recorder.close()
            return sink.lines
        }
        let timed = try recorded(timing: true)
        let untimed = try recorded(timing: false)
        func masked(_ lines: [String]) -> [String] {
            lines.filter { !$0.hasPrefix("\"") }.map { line in
                line.replacingOccurrences(of: #"^\[(\d+),[-0-9.e+]+,"#, with: "[$1,T,", options: .regularExpression)
                    .replacingOccurrences(of: #""created":"[^"]*""#, with: #""created":"T""#, options: .regularExpression)
                    .replacingOccurrences(of: #""t":[0-9.]+"#, with: #""t":T"#, options: .regularExpression)
                    .replacingOccurrences(of: #""timed":false,"#, with: "")
            }
        }
        #expect(timed.count == untimed.count + 11, "a timing line per transaction")
        #expect(untimed[0].contains(#""minor":\#(JournalFormat.minorVersion),"timed":false,"#) && !timed[0].contains("timed"))
        #expect(masked(timed) == masked(untimed), "the same lines, but for their times and the header's timed field")
    }

    @Test func aRecorderThatOptsOutWritesNoTimingLines() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("untimed.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.recordsTiming = false
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(TimedCounterAtom())
        context.set(1, for: TimedCounterAtom())
        try recorder.close()
        let reader = try JournalReader(path: path)
        #expect(reader.header.minor == JournalFormat.minorVersion && reader.header.timed == false && !reader.recordsTimings)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#"{"type":"t"#) == false)
    }
}

private struct TimedCounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

private struct TimedDoubledAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(TimedCounterAtom()) * 2 }
}
