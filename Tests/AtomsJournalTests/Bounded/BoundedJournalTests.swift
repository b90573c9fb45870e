import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Bounded journals: a folder of segments that stays within its limit, read by the folder's
/// path with global step numbers.
@MainActor
struct BoundedJournalTests {
    /// Records `count` increments of `CountAtom` (with a derived atom) into `path`.
    private func record(_ count: Int, to path: String, limit: Int?, keyframeInterval: Int = 16) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, limit: limit, keyframeInterval: keyframeInterval, program: "bounded-test")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CountAtom())
        for _ in 0..<count {
            context[CountAtom()] += 1
        }
        try recorder.close()
    }

    private func size(of directory: String) throws -> Int {
        try SegmentDirectory.segments(in: directory).reduce(0) { total, segment in
            total + ((try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int) ?? 0)
        }
    }

    @Test func theOldestSegmentsGoAndStepsKeepTheirNumbers() throws {
        let directory = try TemporaryDirectory()
        let bounded = directory.path("bounded")
        let unbounded = directory.path("whole.jsonl")
        let limit = 16 << 10
        try record(3_000, to: bounded, limit: limit)
        try record(3_000, to: unbounded, limit: nil)

        let segments = try SegmentDirectory.segments(in: bounded)
        #expect(segments.count >= 3)
        #expect(segments.first!.number > 1, "the first segments were deleted")
        #expect(try size(of: bounded) <= limit + SegmentWriter.segmentSize(forLimit: limit), "within the limit plus one segment")

        let journal = try JournalReader(path: bounded)
        let whole = try JournalReader(path: unbounded)
        #expect(journal.isBounded && journal.isEnded)
        #expect(journal.lastStep == whole.lastStep)
        #expect(journal.firstStep > whole.firstStep)
        #expect(journal.droppedTransactions == journal.firstStep - whole.firstStep)
        #expect(journal.firstSegment == segments.first!.number)
        // Every step kept reads as in the unbounded journal, at segment borders too.
        var random = SeededGenerator(seed: 7)
        var steps = [journal.firstStep, journal.lastStep] + (0..<40).map { _ in journal.firstStep + random.next(journal.lastStep - journal.firstStep + 1) }
        for segment in segments {
            let alone = try JournalReader(path: segment.path)
            steps += [alone.firstStep, alone.lastStep]
        }
        for step in steps {
            #expect(try journal.state(at: step) == whole.state(at: step), "step \(step)")
            if step > journal.firstStep {
                // Two recordings: the same transactions, at other times.
                var read = try journal.transaction(step)
                var expected = try whole.transaction(step)
                (read.t, expected.t) = (0, 0)
                #expect(read == expected, "transaction \(step)")
            }
        }
        #expect(throws: JournalError.self) { try journal.state(at: journal.firstStep - 1) }
    }

    @Test func eachSegmentStandsAlone() throws {
        let directory = try TemporaryDirectory()
        let bounded = directory.path("bounded")
        try record(1_000, to: bounded, limit: 8 << 10)
        var previousLast: Int?
        for segment in try SegmentDirectory.segments(in: bounded) {
            let lines = try String(contentsOfFile: segment.path, encoding: .utf8).split(separator: "\n")
            let header = try JSONDecoder().decode(JournalHeader.self, from: Data(lines[0].utf8))
            #expect(header.segment == segment.number && header.limit == 8 << 10 && header.startStep == 0)
            #expect(lines[1].hasPrefix(#"{"type":"keyframe","seq":"#))
            #expect(lines[1].contains(#""locs":[{"id":1,"#), "the keyframe lists the locations the segment uses")
            // Read alone, from its own keyframe, with nothing before it.
            let alone = try JournalReader(path: segment.path)
            _ = try alone.state(at: alone.lastStep)
            if let previousLast { #expect(alone.firstStep == previousLast) }
            previousLast = alone.lastStep
        }
    }

    @Test func whatACrashLeavesBehindStillOpens() throws {
        let directory = try TemporaryDirectory()
        let bounded = directory.path("bounded")
        try record(600, to: bounded, limit: 8 << 10)
        var segments = try SegmentDirectory.segments(in: bounded)
        // A rotation cut short: the next segment's temporary file, never renamed.
        try Data("{\"format\":\"atoms-journal\",\"vers".utf8).write(to: URL(fileURLWithPath: bounded + "/" + SegmentDirectory.temporaryName(of: segments.last!.number + 1)))
        // The last segment torn mid-line, without its end line.
        var text = try String(contentsOfFile: segments.last!.path, encoding: .utf8)
        text = String(text.split(separator: "\n").dropLast().joined(separator: "\n")) + "\n[999,1"
        try text.write(toFile: segments.last!.path, atomically: false, encoding: .utf8)
        let journal = try JournalReader(path: bounded)
        #expect(journal.warnings.count == 1)
        #expect(!journal.isEnded)
        #expect(journal.lastStep == 601, "the watch, then 600 increments")
        // The oldest segment deleted while a reader lists the folder: the rest still reads.
        try FileManager.default.removeItem(atPath: segments.removeFirst().path)
        let later = try JournalReader(path: bounded)
        #expect(later.firstStep > journal.firstStep && later.lastStep == 601)
        _ = try later.state(at: later.firstStep)
        // A segment missing in the middle is damage, named as such.
        try FileManager.default.removeItem(atPath: segments[1].path)
        #expect(throws: JournalError.self) { try JournalReader(path: bounded) }
    }

    @Test func aNewRecordingReplacesTheOldSegmentsOnly() throws {
        let directory = try TemporaryDirectory()
        let bounded = directory.path("bounded")
        try record(600, to: bounded, limit: 8 << 10)
        let unrelated = try directory.write("bounded/notes.txt", "mine")
        try record(5, to: bounded, limit: 8 << 10)
        #expect(try SegmentDirectory.segments(in: bounded).map(\.number) == [1])
        #expect(FileManager.default.fileExists(atPath: unrelated))
        #expect(try JournalReader(path: bounded).lastStep == 6)
    }

    @Test func sizesAreReadWithUnits() {
        #expect(JournalSizeLimit.parse("65536") == 65536)
        #expect(JournalSizeLimit.parse("64KB") == 64 << 10)
        #expect(JournalSizeLimit.parse("4mb") == 4 << 20)
        #expect(JournalSizeLimit.parse("1GB") == 1 << 30)
        #expect(JournalSizeLimit.parse("12B") == 12)
        #expect(JournalSizeLimit.parse("512K") == 512 << 10)
        #expect(JournalSizeLimit.parse("4m") == 4 << 20)
        #expect(JournalSizeLimit.parse("2G") == 2 << 30)
        for bad in ["", "MB", "M", "4 MB", "4KM", "-4MB", "4TB", "1.5MB", "99999999999999GB"] {
            #expect(JournalSizeLimit.parse(bad) == nil, "\(bad)")
        }
        #expect(throws: JournalError.self) { try FileJournalSink(directory: "/tmp/never", limit: 1000) }
    }
}
