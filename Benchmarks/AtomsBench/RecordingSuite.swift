import Atoms
import AtomsJournal
import Foundation

/// A small Codable state, as most app state is.
struct BenchSettings: Codable, Equatable {
    var volume: Int
    var muted: Bool
    var name: String
}

struct BenchSettingsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> BenchSettings {
        BenchSettings(volume: 0, muted: false, name: "default")
    }
}

/// R2: recording overhead. The same 100,000 transactions with the journal off and on,
/// interleaved in one process; the ratio of the medians is the figure.
@MainActor
enum RecordingSuite {
    static let transactions = 100_000

    static func run(repetitions: Int) -> (off: Measurement, on: Measurement, onMainThread: Measurement, timedCPU: Measurement, untimedCPU: Measurement, bytesPerTransaction: Double, timingBytesPerTransaction: Double, valueBytes: Double) {
        var off: [Double] = []
        var on: [Double] = []
        var onMainThread: [Double] = []
        var timedCPU: [Double] = []
        var untimedCPU: [Double] = []
        var bytes = 0.0
        var timedBytes = 0.0
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for repetition in 0..<repetitions {
            off.append(session(journal: nil).total)
            let path = directory.appendingPathComponent("r\(repetition).jsonl").path
            // Without timing lines (a recorder that opted out), as the figures of earlier rounds
            // were measured; the timed session below is the default.
            let recorded = session(journal: path)
            on.append(recorded.total)
            onMainThread.append(recorded.beforeFlush)
            // What timing adds to the app's thread: its CPU time in the loop, the same recording
            // with timing and without (wall time would count the recorder's thread and other
            // processes taking the core).
            untimedCPU.append(recorded.cpu)
            timedCPU.append(session(journal: path + ".timed", timing: true).cpu)
            bytes = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            timedBytes = Double((try? FileManager.default.attributesOfItem(atPath: path + ".timed")[.size] as? Int) ?? 0)
        }
        let value = try! JSONEncoder().encode(BenchSettings(volume: transactions, muted: true, name: "default"))
        return (
            Measurement(name: "journal-off", samples: off, unit: "transaction"),
            Measurement(name: "journal-on", samples: on, unit: "transaction"),
            Measurement(name: "journal-on-main-thread", samples: onMainThread, unit: "transaction"),
            Measurement(name: "journal-on-timed-cpu", samples: timedCPU, unit: "transaction"),
            Measurement(name: "journal-on-untimed-cpu", samples: untimedCPU, unit: "transaction"),
            bytes / Double(transactions),
            (timedBytes - bytes) / Double(transactions),
            Double(value.count)
        )
    }

    /// Nanoseconds per transaction for one session, recording to `journal` when given: in
    /// all, and before the closing flush (what the app's own thread spent).
    private static func session(journal: String?, timing: Bool = false, transactions: Int = transactions) -> (total: Double, beforeFlush: Double, cpu: Double) {
        let (context, recorder) = recordedContext(journal: journal, timing: timing)
        context.watch(BenchSettingsAtom())
        var beforeFlush = 0.0
        var cpu = 0.0
        let elapsed = nanoseconds {
            let loop = nanoseconds {
                cpu = threadCPUNanoseconds {
                    for _ in 0..<transactions {
                        context[BenchSettingsAtom()].volume += 1
                    }
                }
            }
            beforeFlush = loop
            // The journal is complete only once written: include the flush.
            try? recorder?.close()
        }
        return (elapsed / Double(transactions), beforeFlush / Double(transactions), cpu / Double(transactions))
    }

    /// A fresh root's context, recorded to `journal` when given (with timing lines when
    /// `timing`), and its recorder.
    static func recordedContext(journal: String?, timing: Bool) -> (AtomViewContext, JournalRecorder?) {
        let root = AtomRoot()
        let recorder = journal.map { try! JournalRecorder(path: $0) }
        recorder?.recordsTiming = timing
        recorder?.attach(to: root.store)
        return (root.viewContext(), recorder)
    }

    /// One recorded session of `transactions`, timed or not, for counting its instructions
    /// (`valgrind --tool=callgrind --separate-threads=yes atoms-bench --recording-once timed|untimed|off 20000`):
    /// prints the app thread's CPU time per transaction.
    static func runOnce(timing: Bool, journal: Bool = true, transactions: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-once-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = session(journal: journal ? path : nil, timing: timing, transactions: transactions)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("\(journal ? timing ? "timed" : "untimed" : "off"): \(formatted(nanoseconds: result.cpu)) app-thread CPU per transaction, \(bytes / transactions) bytes per transaction")
    }
}
