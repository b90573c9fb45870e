import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// A recorder whose store goes away without `close()` completes its journal and ends its
/// threads; a sink dropped at once is not a crash.
@MainActor
struct RecorderLifetimeTests {
    // The limit is generous: the waits below hand the main actor to other tests meanwhile.
    @Test(.timeLimit(.minutes(Patience.minutes(10))))
    func aRecorderWhoseStoreGoesAwayCompletesItsJournalAndEndsItsThreads() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("unclosed.jsonl")
        // The recorder's thread holds its pipeline and the sink until it ends: once nothing else
        // does, the weak references tell that it ended.
        weak var weakSink: FileJournalSink?
        weak var weakRecorder: JournalRecorder?
        do {
            let root = AtomRoot()
            let sink = try FileJournalSink(path: path, flush: .onClose)
            let recorder = JournalRecorder(sink: sink)
            weakSink = sink
            weakRecorder = recorder
            recorder.attach(to: root.store)
            let context = root.viewContext()
            context.watch(CountAtom())
            for _ in 0..<100 {
                context[CountAtom()] += 1
            }
        }
        let deadline = Patience.date(after: 30)
        while weakSink != nil || weakRecorder != nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(weakRecorder == nil, "the store that kept the recorder is gone")
        #expect(weakSink == nil, "the recorder's thread ended")
        let journal = try JournalReader(path: path)
        #expect(journal.warnings.isEmpty)
        // The watch's initialization, 100 sets, and the release as the context went away.
        #expect(journal.lastStep == 102, "every transaction reached the file")
    }

    @Test func aSinkDroppedRightAwayIsNotACrash() throws {
        let directory = try TemporaryDirectory()
        for index in 0..<50 {
            _ = try FileJournalSink(path: directory.path("dropped-\(index).jsonl"))
        }
        let kept = try FileJournalSink(path: directory.path("kept.jsonl"))
        try kept.append(Array("x\n".utf8))
        kept.close()
        #expect(try String(contentsOfFile: directory.path("kept.jsonl"), encoding: .utf8) == "x\n")
    }
}
