import Atoms
import AtomsJournal
import Foundation

/// R2f: what a flight recorder costs the app's thread beside a journal file: the same
/// transactions as R2 (a small Codable value), with no recorder, a journal file and a 4 MB
/// flight recorder, interleaved in one process. The figure is the app thread's CPU time in
/// the loop (the recorder's thread does the rest in both modes), and its wall time before the
/// closing flush; a dump of the full 4 MB is timed too.
@MainActor
enum FlightRecorderSuite {
    static let capacity = 4 << 20

    enum Mode: CaseIterable {
        case off, file, flight
    }

    struct Figures {
        /// App-thread CPU nanoseconds per transaction, by mode, one sample per repetition.
        var cpu: [Mode: [Double]] = [:]
        /// App-thread wall nanoseconds per transaction before the flush, by mode.
        var wall: [Mode: [Double]] = [:]
        /// Milliseconds to dump the flight recorder once full, and the dump's size in bytes.
        var dumpMilliseconds: [Double] = []
        var dumpBytes = 0
    }

    static func run(repetitions: Int) -> Figures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-flight-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var figures = Figures()
        for repetition in 0..<repetitions {
            for mode in Mode.allCases {
                let recorder: JournalRecorder? = switch mode {
                case .off: nil
                case .file: try! JournalRecorder(path: directory.appendingPathComponent("r\(repetition).jsonl").path)
                case .flight: try! JournalRecorder(flightRecorder: capacity)
                }
                let session = session(recorder: recorder)
                figures.cpu[mode, default: []].append(session.cpu)
                figures.wall[mode, default: []].append(session.wall)
                if mode == .flight, let recorder {
                    let path = directory.appendingPathComponent("dump\(repetition).jsonl").path
                    figures.dumpMilliseconds.append(nanoseconds { _ = try! recorder.dump(to: path) } / 1e6)
                    figures.dumpBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                }
                try? recorder?.close()
            }
        }
        return figures
    }

    /// One session of `transactions` recorded to a journal file or a flight recorder, for
    /// counting the app thread's instructions, which the machine's load does not change
    /// (`valgrind --tool=callgrind --separate-threads=yes atoms-bench --flight-once flight 20000`).
    static func runOnce(flight: Bool, transactions: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-flight-once-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = flight ? try! JournalRecorder(flightRecorder: capacity) : try! JournalRecorder(path: path)
        let result = session(recorder: recorder, transactions: transactions)
        try? recorder.close()
        print("\(flight ? "flight" : "file"): \(formatted(nanoseconds: result.cpu)) app-thread CPU per transaction")
    }

    /// The app thread's CPU and wall nanoseconds per transaction, recording with `recorder`
    /// (flushed after the loop, so the next session starts with an idle recorder thread).
    private static func session(recorder: JournalRecorder?, transactions: Int = RecordingSuite.transactions) -> (cpu: Double, wall: Double) {
        let root = AtomRoot()
        recorder?.attach(to: root.store)
        let context = root.viewContext()
        context.watch(BenchSettingsAtom())
        var cpu = 0.0
        let wall = nanoseconds {
            cpu = threadCPUNanoseconds {
                for _ in 0..<transactions {
                    context[BenchSettingsAtom()].volume += 1
                }
            }
        }
        try? recorder?.flush()
        let count = Double(transactions)
        return (cpu / count, wall / count)
    }
}
