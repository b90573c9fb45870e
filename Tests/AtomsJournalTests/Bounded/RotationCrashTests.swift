import Atoms
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// A recorder stopped at any moment of a segment rotation leaves a bounded journal that opens
/// with everything it had flushed. The writer thread copies the folder at each moment (what a
/// SIGKILL there would leave: every write is a system call, nothing waits in the process), so
/// each moment is covered on every run, not only when a kill happens to land inside one.
@MainActor
struct RotationCrashTests {
    /// The copies of the folder, and the last step flushed before each was taken.
    private final class Snapshots: Sendable {
        let folder: String
        let flushed = Mutex(-1)
        let taken = Mutex<[(moment: SegmentRotationMoment, path: String, flushed: Int)]>([])

        init(folder: String) {
            self.folder = folder
        }

        /// Copies every file of `journal` (temporary segments too) into a new folder.
        func take(_ journal: String, at moment: SegmentRotationMoment) {
            let copy = folder + "/" + String(taken.withLock(\.count))
            let files = FileManager.default
            try? files.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for name in (try? files.contentsOfDirectory(atPath: journal)) ?? [] {
                try? files.copyItem(atPath: journal + "/" + name, toPath: copy + "/" + name)
            }
            let step = flushed.withLock { $0 }
            taken.withLock { $0.append((moment, copy, step)) }
        }
    }

    @Test func aRotationCutShortAtEitherMomentLeavesAJournalWithEverythingFlushed() throws {
        let directory = try TemporaryDirectory()
        let journal = directory.path("bounded")
        let snapshots = Snapshots(folder: directory.path("snapshots"))
        let sink = try FileJournalSink(directory: journal, limit: 4 << 10, flush: .everyTransaction) { moment in
            snapshots.take(journal, at: moment)
        }
        let root = AtomRoot()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: 16, program: "rotation-test")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CountAtom())
        for round in 1...20 {
            for _ in 0..<20 {
                context[CountAtom()] += 1
            }
            try recorder.flush()
            snapshots.flushed.withLock { $0 = 1 + round * 20 }  // the watch, then the increments
        }
        try recorder.close()

        let taken = snapshots.taken.withLock { $0 }
        #expect(taken.count >= 10, "the journal rotated at least five times")
        for (moment, path, flushed) in taken {
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
            let isTemporaryThere = names.contains { $0.hasSuffix(".jsonl.tmp") }
            switch moment {
            case .temporaryWritten: #expect(isTemporaryThere, "\(moment)")
            case .renamed: #expect(!isTemporaryThere, "\(moment)")
            }
            guard names.contains(where: { $0.hasSuffix(".jsonl") }) else {
                #expect(moment == .temporaryWritten(segment: 1) && flushed < 0, "only the first segment's start has no segment yet")
                continue
            }
            let reader = try JournalReader(path: path)
            #expect(reader.lastStep >= flushed, "\(moment): last step \(reader.lastStep), flushed \(flushed)")
            #expect(!reader.isEnded, "\(moment): no end line before close")
            _ = try reader.state(at: reader.lastStep)
            let summary = try reader.summary()
            #expect(summary.causes.values.reduce(0, +) == reader.lastStep - reader.firstStep, "\(moment)")
        }
    }
}
