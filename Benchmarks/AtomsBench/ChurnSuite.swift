import Atoms
import AtomsJournal
import Foundation

/// The counter ticking beside the family members.
struct ChurnTickAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// One family member per list item, as an app creates for the rows it shows.
struct ChurnMemberAtom: ValueAtom {
    let id: Int

    var key: Int { id }

    func value(context: Context) -> String { "Item \(id)" }
}

/// Atom churn: family members watched one after another, each released when the next
/// is watched, a counter ticking beside them; journal off, unbounded and bounded. The recorder
/// is flushed every 1,000 members. Each run is a child process (`atoms-bench --churn-once MODE
/// COUNT PATH`), so its peak memory is its own.
@MainActor
enum ChurnSuite {
    /// Where a run records.
    enum Mode: String, CaseIterable {
        case off, unbounded, bounded
    }

    /// The bounded runs' limit.
    static let limit = 1 << 20

    /// What one run measured.
    struct Run {
        var seconds = 0.0
        var transactions = 0
        /// The journal's bytes: the file, or the segments kept in the folder.
        var bytes = 0
        /// The largest keyframe line among the journal's kept lines.
        var largestKeyframe = 0
        /// The keyframe lines' bytes, newlines included.
        var keyframeBytes = 0
        /// `VmHWM` of the run's process.
        var peakBytes = 0
    }

    /// `atoms-inspect log` and `log --atom` (one member's two lives are listed) on an
    /// unbounded journal of `members` members, and `wc -l` on it, as processes, interleaved,
    /// medians of 5; `nil` when atoms-inspect is not built next to this executable.
    static func reading(members: Int, directory: URL) throws -> (wc: Double, log: Double, logAtom: Double)? {
        let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("atoms-inspect").path
        guard FileManager.default.isExecutableFile(atPath: inspector) else { return nil }
        let path = directory.appendingPathComponent("churn-reading-\(members)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try InspectorSuite.shell(CommandLine.arguments[0], ["--churn-once", Mode.unbounded.rawValue, String(members), path])
        let atom = "ChurnMemberAtom[\(members - 10)]"
        var (wc, log, logAtom): ([Double], [Double], [Double]) = ([], [], [])
        for _ in 0..<5 {
            wc.append(InspectorSuite.seconds { _ = try? InspectorSuite.shell("/usr/bin/wc", ["-l", path]) })
            log.append(InspectorSuite.seconds { _ = try? InspectorSuite.shell(inspector, ["log", path]) })
            logAtom.append(InspectorSuite.seconds { _ = try? InspectorSuite.shell(inspector, ["log", path, "--atom", atom]) })
        }
        return (InspectorSuite.median(wc), InspectorSuite.median(log), InspectorSuite.median(logAtom))
    }

    /// Runs one session in a child process and reads what it measured.
    static func run(_ mode: Mode, members: Int, directory: URL) throws -> Run {
        let path = directory.appendingPathComponent("churn-\(mode.rawValue)-\(members)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try InspectorSuite.shell(CommandLine.arguments[0], ["--churn-once", mode.rawValue, String(members), path])
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 6, let seconds = Double(fields[0]) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the churn run printed '\(String(decoding: output, as: UTF8.self))'"])
        }
        return Run(seconds: seconds, transactions: Int(fields[1]) ?? 0, bytes: Int(fields[2]) ?? 0, largestKeyframe: Int(fields[3]) ?? 0, keyframeBytes: Int(fields[4]) ?? 0, peakBytes: Int(fields[5]) ?? 0)
    }

    /// The child process of ``run(_:members:directory:)``: records one session, prints its
    /// seconds, transactions, journal bytes, largest keyframe, keyframe bytes and peak memory,
    /// exits.
    static func runOnce(mode: String, members: Int, path: String) {
        guard let mode = Mode(rawValue: mode) else {
            FileHandle.standardError.write(Data("atoms-bench: unknown churn mode '\(mode)'\n".utf8))
            exit(64)
        }
        do {
            var run = Run()
            let start = DispatchTime.now().uptimeNanoseconds
            run.transactions = try session(mode: mode, members: members, path: path)
            run.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            // Before reading the journal back, which takes memory of its own.
            run.peakBytes = peakResidentBytes()
            (run.bytes, run.largestKeyframe, run.keyframeBytes) = try measureJournal(mode: mode, path: path)
            print(String(format: "%.4f", run.seconds), run.transactions, run.bytes, run.largestKeyframe, run.keyframeBytes, run.peakBytes)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    /// Watches `members` family members one after another, releasing each when the next is
    /// watched, and ticks the counter each time; returns the transactions committed.
    private static func session(mode: Mode, members: Int, path: String) throws -> Int {
        let root = AtomRoot()
        let recorder: JournalRecorder? = switch mode {
        case .off: nil
        case .unbounded: try JournalRecorder(path: path, limit: nil, program: "atoms-bench")
        case .bounded: try JournalRecorder(path: path, limit: limit, program: "atoms-bench")
        }
        recorder?.attach(to: root.store)
        let context = root.viewContext()
        context.watch(ChurnTickAtom())
        for id in 0..<members {
            context.watch(ChurnMemberAtom(id: id))
            if id > 0 {
                context.unwatch(ChurnMemberAtom(id: id - 1))
            }
            context[ChurnTickAtom()] += 1
            if id % 1_000 == 999 {
                // Let the recorder catch up now and then, as an app's idle moments do: the
                // peak memory is then the recorder's own, not a backlog of transactions.
                try recorder?.flush()
            }
        }
        try recorder?.close()
        return root.store.committedTransactions
    }

    /// The journal's bytes, its largest keyframe line and its keyframe lines' bytes.
    private static func measureJournal(mode: Mode, path: String) throws -> (bytes: Int, largestKeyframe: Int, keyframeBytes: Int) {
        let files: [String] = switch mode {
        case .off: []
        case .unbounded: [path]
        case .bounded: try SegmentDirectory.segments(in: path).map(\.path)
        }
        var bytes = 0
        var largest = 0
        var keyframes = 0
        let prefix = Array(#"{"type":"keyframe""#.utf8)
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            bytes += data.count
            for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) where line.starts(with: prefix) {
                largest = max(largest, line.count)
                keyframes += line.count + 1
            }
        }
        return (bytes, largest, keyframes)
    }

    /// This process's `VmHWM` in bytes.
    private static func peakResidentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
