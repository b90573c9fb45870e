import Atoms
import AtomsInspector
import AtomsJournal
import Foundation

/// One of many counters, keyed by number.
struct BenchCounterAtom: StateAtom {
    let id: Int
    var key: Int { id }
    func defaultValue(context: Context) -> Int { 0 }
}

/// The sum of a few counters: a derived atom that changes with them.
struct BenchTotalAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        (0..<8).reduce(0) { $0 + context.watch(BenchCounterAtom(id: $1)) }
    }
}

/// R4–R7: opening, seeking, diffing and memory on a generated 1,000,000-transaction journal.
@MainActor
enum InspectorSuite {
    struct Figures {
        var transactions = 0
        var fileBytes = 0
        var generateSeconds = 0.0
        var wcSeconds = 0.0
        var openSeekSeconds = 0.0
        var seekMilliseconds: [Double] = []
        var diffMilliseconds = 0.0
        var jqSeconds: Double?
        var peakRSSBytes = 0
        /// Whether ``peakRSSBytes`` is the `atoms-inspect` process's (else this executable's
        /// own `--inspect-once` child, when atoms-inspect or peak-rss is not built).
        var peakRSSOfAtomsInspect = false
        /// The peak RSS of `atoms-inspect --version`, when atoms-inspect and peak-rss are built.
        var versionPeakRSSBytes: Int?
        /// The floor beside both: the peak RSS of `wc -l` on the same journal, run the same way.
        var wcPeakRSSBytes: Int?
        /// The peak RSS of `atoms-inspect log` on the journal (its output discarded).
        var logPeakRSSBytes: Int?
        /// Whole processes: `atoms-inspect show --at MID` and `atoms-inspect --version`
        /// (`nil` when atoms-inspect is not built next to this executable).
        var showProcessSeconds: Double?
        var versionProcessSeconds: Double?
        /// The generated journal, deleted with the directory.
        var path = ""
    }

    /// Records the journal with the real recorder: 1,000,000 sets of 100 counters chosen by a
    /// deterministic generator. With `mark`, the dap suite's journal: ``BenchMarkAtom`` is
    /// watched instead of the total and set once, at step `mark`.
    static func generate(path: String, transactions: Int, marking mark: Int? = nil) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, flush: .interval(milliseconds: 100), keyframeInterval: 256, program: "atoms-bench")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Bench/Generator.swift", line: 1)
        if mark == nil {
            context.watch(BenchTotalAtom())
        } else {
            context.watch(BenchMarkAtom())
        }
        for id in 0..<100 {
            context.watch(BenchCounterAtom(id: id))
        }
        var state: UInt64 = 0x5EED
        var committed = root.store.committedTransactions
        while committed < transactions {
            if let mark, committed == mark - 1 {
                context[BenchMarkAtom()] = 1
            } else {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                context[BenchCounterAtom(id: Int(state >> 33) % 100)] += 1
            }
            committed += 1
        }
        try recorder.close()
    }

    static func run(directory: URL, transactions: Int) throws -> Figures {
        var figures = Figures()
        let path = directory.appendingPathComponent("million.jsonl").path
        figures.path = path
        let start = Date()
        try generate(path: path, transactions: transactions)
        figures.generateSeconds = Date().timeIntervalSince(start)
        figures.fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

        var random = SystemRandomNumberGenerator()
        // R7: `atoms-inspect show --at last`, and what `atoms-inspect --version` alone holds.
        let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("atoms-inspect").path
        let probe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("peak-rss").path
        if FileManager.default.isExecutableFile(atPath: inspector), FileManager.default.isExecutableFile(atPath: probe) {
            figures.peakRSSBytes = try peakRSS(probe, [inspector, "show", path, "--at", "last"])
            figures.peakRSSOfAtomsInspect = true
            figures.versionPeakRSSBytes = try peakRSS(probe, [inspector, "--version"])
            figures.wcPeakRSSBytes = try? peakRSS(probe, ["/usr/bin/wc", "-l", path])
            figures.logPeakRSSBytes = try? peakRSS(probe, [inspector, "log", path])
        } else {
            figures.peakRSSBytes = try peakRSS(ofInspecting: path, step: try JournalReader(path: path).lastStep)
        }

        // R4p: whole processes, against the program's own start-up.
        if FileManager.default.isExecutableFile(atPath: inspector) {
            _ = try? shell(inspector, ["--version"])
            figures.versionProcessSeconds = median((0..<7).map { _ in seconds { _ = try? shell(inspector, ["--version"]) } })
            figures.showProcessSeconds = median((0..<7).map { _ in seconds { _ = try? shell(inspector, ["show", path, "--at", String(transactions / 2)]) } })
        }

        // R4: open + seek to a random step, against `wc -l` on the same (cached) file.
        figures.wcSeconds = median((0..<3).map { _ in seconds { _ = try? shell("/usr/bin/wc", ["-l", path]) } })
        var last = 0
        figures.openSeekSeconds = median(try (0..<3).map { _ in
            try seconds {
                let reader = try JournalReader(path: path)
                last = reader.lastStep
                _ = try reader.state(at: Int.random(in: 0...reader.lastStep, using: &random))
            }
        })
        figures.transactions = last

        // R5: seek between random steps after open.
        let reader = try JournalReader(path: path)
        figures.seekMilliseconds = try (0..<20).map { _ in
            try seconds { _ = try reader.state(at: Int.random(in: 0...last, using: &random)) } * 1000
        }

        // R6: diff first ↔ last, and the final values computed with jq when it is installed.
        let journal = try InspectedJournal(path: path)
        figures.diffMilliseconds = try seconds {
            _ = try DiffCommand.difference(journal, from: .number(0), to: .fromLast(0))
        } * 1000
        if let jq = ["/usr/bin/jq", "/usr/local/bin/jq"].first(where: FileManager.default.isExecutableFile) {
            figures.jqSeconds = seconds {
                _ = try? shell(jq, ["-n", "-c", jqFinalValues, path])
            }
        }
        return figures
    }

    /// The jq program computing every atom's final value from the generated journal, whose
    /// values (integers) are all written whole (`[id,"v",json]`).
    static let jqFinalValues = """
        reduce (inputs | select(type == "array") | .[5][] | select(type == "array" and .[1] == "v")) as $e ({};
          .[$e[0] | tostring] = $e[2])
        """

    /// The peak RSS of a program run by `peak-rss` (wait4's `ru_maxrss` of a process forked
    /// from that small program, so that this one's size does not count), in bytes.
    static func peakRSS(_ probe: String, _ command: [String]) throws -> Int {
        let output = String(decoding: try shell(probe, command), as: UTF8.self)
        guard let bytes = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)), bytes > 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "peak-rss \(command.joined(separator: " ")) printed \(output)"])
        }
        return bytes
    }

    /// Runs this executable as `atoms-bench --inspect-once PATH STEP` and reads the peak RSS
    /// it reports.
    ///
    /// The child reports its own `VmHWM` (the high-water mark of its address space since
    /// `exec`): `getrusage`'s `ru_maxrss` would also count the pages the child shared with this
    /// process between `fork` and `exec`.
    static func peakRSS(ofInspecting path: String, step: Int) throws -> Int {
        let output = try shell(CommandLine.arguments[0], ["--inspect-once", path, String(step)])
        return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The child process of ``peakRSS(ofInspecting:step:)``: open, seek, show, print its peak
    /// RSS in bytes, exit.
    static func inspectOnce(path: String, step: Int) {
        do {
            let journal = try InspectedJournal(path: path)
            _ = try ShowCommand.run(journal, at: .number(step))
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
            print(kilobytes * 1024)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    @discardableResult
    static func shell(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// `find --first` where the answer is near the end: the first step where counter 0 holds
    /// the value it ends with (its last change), against `stats` on the same file. Both read
    /// every transaction's envelope; find also decodes and tests the one atom it names.
    static func findFirst(path: String) throws -> (find: Double, stats: Double, step: Int) {
        let journal = try InspectedJournal(path: path)
        let last = try journal.state(at: journal.reader.lastStep)
        guard let counter = last.liveAtoms.first(where: { $0.displayName == "BenchCounterAtom[0]" }), let final = last.values[counter.id]?.v?.jsonText else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the generated journal has no BenchCounterAtom[0]"])
        }
        let expression = "'BenchCounterAtom[0]' == \(final)"
        var step = 0
        let find = median(try (0..<3).map { _ in
            try seconds { step = try FindCommand.find(try InspectedJournal(path: path), where: expression, mode: .first).steps.first?.step ?? -1 }
        })
        let stats = median(try (0..<3).map { _ in
            try seconds { _ = try StatsCommand.stats(try InspectedJournal(path: path)) }
        })
        return (find, stats, step)
    }

    /// The same `find --first` and `stats` as whole processes of the release `atoms-inspect`
    /// (the commands a user types), interleaved, medians of 5; `nil` when it is not built
    /// next to this executable.
    static func findFirstProcesses(path: String) throws -> (find: Double, stats: Double)? {
        let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("atoms-inspect").path
        guard FileManager.default.isExecutableFile(atPath: inspector) else { return nil }
        let journal = try InspectedJournal(path: path)
        let last = try journal.state(at: journal.reader.lastStep)
        guard let counter = last.liveAtoms.first(where: { $0.displayName == "BenchCounterAtom[0]" }), let final = last.values[counter.id]?.v?.jsonText else { return nil }
        var finds: [Double] = []
        var stats: [Double] = []
        for _ in 0..<5 {
            finds.append(seconds { _ = try? shell(inspector, ["find", path, "--where", "'BenchCounterAtom[0]' == \(final)", "--first"]) })
            stats.append(seconds { _ = try? shell(inspector, ["stats", path]) })
        }
        return (median(finds), median(stats))
    }

    /// `find --where 'CounterAtom == N-10' --first` against `stats`, as whole processes of the
    /// release `atoms-inspect`, on the journal `sample-counter` records from `transactions`
    /// lines of `inc` (the atom changes at every step, so no line is skipped for not naming
    /// it); interleaved, medians of 5. `nil` when atoms-inspect or sample-counter is not built
    /// next to this executable.
    static func findFirstOnIncrements(directory: URL, transactions: Int) throws -> (find: Double, stats: Double)? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let (inspector, counter) = (folder.appendingPathComponent("atoms-inspect").path, folder.appendingPathComponent("sample-counter").path)
        guard FileManager.default.isExecutableFile(atPath: inspector), FileManager.default.isExecutableFile(atPath: counter) else { return nil }
        let path = directory.appendingPathComponent("increments.jsonl").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: counter)
        process.arguments = ["--journal", path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(String(repeating: "inc\n", count: transactions).utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let expression = "CounterAtom == \(transactions - 10)"
        var (finds, stats): ([Double], [Double]) = ([], [])
        for _ in 0..<5 {
            finds.append(seconds { _ = try? shell(inspector, ["find", path, "--where", expression, "--first"]) })
            stats.append(seconds { _ = try? shell(inspector, ["stats", path]) })
        }
        return (median(finds), median(stats))
    }

    /// `atoms-inspect log` and `atoms-inspect stats` as whole processes against `wc -l` on the
    /// same file (all three with their process starts), interleaved, medians of 5; `nil` when
    /// atoms-inspect is not built next to this executable.
    static func listingProcesses(path: String) -> (wc: Double, log: Double, stats: Double)? {
        let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("atoms-inspect").path
        guard FileManager.default.isExecutableFile(atPath: inspector) else { return nil }
        var (wc, log, stats): ([Double], [Double], [Double]) = ([], [], [])
        for _ in 0..<5 {
            wc.append(seconds { _ = try? shell("/usr/bin/wc", ["-l", path]) })
            log.append(seconds { _ = try? shell(inspector, ["log", path]) })
            stats.append(seconds { _ = try? shell(inspector, ["stats", path]) })
        }
        return (median(wc), median(log), median(stats))
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}
