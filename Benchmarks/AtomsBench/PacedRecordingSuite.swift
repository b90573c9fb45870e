import Atoms
import AtomsJournal
import Foundation

/// R2p: R2's small write at a program's pace rather than in a tight loop: one commit every
/// `gap` microseconds (the wait spun, not slept, so the thread keeps its core), the journal
/// off and on interleaved. The figure is the app thread's CPU time in the commits alone, on
/// less off: what recording costs a program whose recorder's thread has gone to sleep
/// between its commits, and which each commit may have to wake.
@MainActor
enum PacedRecordingSuite {
    static let commits = 5_000
    /// Microseconds between commits.
    static let gaps = [10, 50, 200]

    /// For each gap, the app thread's CPU nanoseconds per commit, journal off and on (one
    /// sample per repetition each).
    static func run(repetitions: Int) -> [(gap: Int, off: Measurement, on: Measurement)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-paced-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return gaps.map { gap in
            var off: [Double] = []
            var on: [Double] = []
            for repetition in 0..<repetitions {
                off.append(session(gap: gap, journal: nil))
                on.append(session(gap: gap, journal: directory.appendingPathComponent("g\(gap)-\(repetition).jsonl").path))
            }
            return (gap, Measurement(name: "paced-\(gap)us-off", samples: off, unit: "commit"), Measurement(name: "paced-\(gap)us-on", samples: on, unit: "commit"))
        }
    }

    /// The app thread's CPU nanoseconds per commit, commits `gap` microseconds apart.
    private static func session(gap: Int, journal: String?) -> Double {
        let root = AtomRoot()
        let recorder = journal.map { try! JournalRecorder(path: $0) }
        recorder?.recordsTiming = false
        recorder?.attach(to: root.store)
        let context = root.viewContext()
        context.watch(BenchSettingsAtom())
        var cpu = 0.0
        var next = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<commits {
            next += UInt64(gap) * 1_000
            while DispatchTime.now().uptimeNanoseconds < next {}
            cpu += threadCPUNanoseconds {
                context[BenchSettingsAtom()].volume += 1
            }
        }
        try? recorder?.close()
        return cpu / Double(commits)
    }
}
