import Atoms
import AtomsJournal
import Foundation

/// R2p: commits at a program's pace rather than in a tight loop: one commit every `gap`
/// microseconds (the wait spun, not slept, so the thread keeps its core), the journal off and
/// on interleaved. The figure is the app thread's CPU time in the commits alone, on less off
/// (the floor, measured in the same run): what recording costs a program whose recorder's
/// thread has gone to sleep between its commits, and which each commit may have to wake.
/// Two workloads: R2's small write, and R2b's toggle of one flag in a list of 500 todos
/// (with the filtered list and the counts derived from it).
@MainActor
enum PacedRecordingSuite {
    /// Microseconds between commits.
    static let gaps = [10, 50, 200]

    /// A workload: how many commits a session makes, and how to set one up (its atoms
    /// watched, its state built) into a commit to repeat.
    struct Workload {
        let name: String
        let commits: Int
        let prepare: @MainActor (AtomViewContext) -> @MainActor () -> Void
    }

    static let workloads = [
        Workload(name: "small write", commits: 5_000) { context in
            context.watch(BenchSettingsAtom())
            return { context[BenchSettingsAtom()].volume += 1 }
        },
        Workload(name: "toggle in 500 todos", commits: 1_000) { context in
            context.watch(BenchFilteredTodosAtom())
            context.watch(BenchTodoStatsAtom())
            context[BenchTodosAtom()] = (0..<LargeStateSuite.todos).map(CodableTodos.todo(id:))
            var state: UInt64 = 0x5EED
            return {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                CodableTodos.toggle(&context[BenchTodosAtom()][Int(state >> 33) % LargeStateSuite.todos])
            }
        },
    ]

    /// For each workload and gap, the app thread's CPU nanoseconds per commit, journal off
    /// and on (one sample per repetition each).
    static func run(repetitions: Int) -> [(workload: String, gap: Int, off: Measurement, on: Measurement)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-paced-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return workloads.enumerated().flatMap { index, workload in
            gaps.map { gap in
                var off: [Double] = []
                var on: [Double] = []
                for repetition in 0..<repetitions {
                    off.append(session(workload, gap: gap, journal: nil))
                    on.append(session(workload, gap: gap, journal: directory.appendingPathComponent("w\(index)-g\(gap)-\(repetition).jsonl").path))
                }
                return (workload.name, gap, Measurement(name: "paced-\(index)-\(gap)us-off", samples: off, unit: "commit"), Measurement(name: "paced-\(index)-\(gap)us-on", samples: on, unit: "commit"))
            }
        }
    }

    /// The app thread's CPU nanoseconds per commit, commits `gap` microseconds apart.
    private static func session(_ workload: Workload, gap: Int, journal: String?) -> Double {
        let (context, recorder) = RecordingSuite.recordedContext(journal: journal, timing: false)
        let commit = workload.prepare(context)
        var cpu = 0.0
        var next = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<workload.commits {
            next += UInt64(gap) * 1_000
            while DispatchTime.now().uptimeNanoseconds < next {}
            cpu += threadCPUNanoseconds(commit)
        }
        try? recorder?.close()
        return cpu / Double(workload.commits)
    }
}
