import Foundation

// atoms-bench: release-built benchmarks, never part of `swift test`.
// `swift run -c release atoms-bench [runtime|recording|paced|flight|allocations|counter|large|inspector|live|churn|report|export|replay|shrink|dap …] [--json] [--quick]`
// `atoms-bench --recording-once timed|untimed|off N`: one session of R2, for callgrind;
// `atoms-bench --large-once untimed|off TOGGLES [recordable]`: one session of R2b, for callgrind;
// `atoms-bench --flight-once file|flight N`: one session of R2f, for callgrind.

/// One reported figure.
struct Figure: Encodable {
    let suite: String
    let name: String
    let value: Double
    let unit: String
    let target: String?
    let meetsTarget: Bool?
}

@MainActor
func runBenchmarks() async {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--inspect-once"), arguments.count > index + 2 {
        InspectorSuite.inspectOnce(path: arguments[index + 1], step: Int(arguments[index + 2]) ?? 0)
        return
    }
    if let index = arguments.firstIndex(of: "--churn-once"), arguments.count > index + 3 {
        ChurnSuite.runOnce(mode: arguments[index + 1], members: Int(arguments[index + 2]) ?? 0, path: arguments[index + 3])
        return
    }
    if let index = arguments.firstIndex(of: "--export-once"), arguments.count > index + 2 {
        ExportSuite.exportOnce(path: arguments[index + 1], directory: arguments[index + 2])
        return
    }
    if let index = arguments.firstIndex(of: "--large-once"), arguments.count > index + 2 {
        LargeStateSuite.runOnce(
            journal: arguments[index + 1] != "off", toggles: Int(arguments[index + 2]) ?? LargeStateSuite.toggles,
            recordable: arguments.count > index + 3 && arguments[index + 3] == "recordable"
        )
        return
    }
    if let index = arguments.firstIndex(of: "--recording-once"), arguments.count > index + 2 {
        RecordingSuite.runOnce(timing: arguments[index + 1] == "timed", journal: arguments[index + 1] != "off", transactions: Int(arguments[index + 2]) ?? 20_000)
        return
    }
    if let index = arguments.firstIndex(of: "--flight-once"), arguments.count > index + 2 {
        FlightRecorderSuite.runOnce(flight: arguments[index + 1] == "flight", transactions: Int(arguments[index + 2]) ?? 20_000)
        return
    }
    let json = arguments.contains("--json")
    let quick = arguments.contains("--quick")
    let filters = arguments.dropFirst().filter { !$0.hasPrefix("--") && !$0.hasPrefix("/") && !$0.hasPrefix(".") }
    func selected(_ suite: String) -> Bool {
        filters.isEmpty || filters.contains { suite.contains($0) || $0.contains(suite) }
    }
    var figures: [Figure] = []
    func report(_ suite: String, _ name: String, _ value: Double, _ unit: String, target: String? = nil, meets: Bool? = nil, text: String) {
        figures.append(Figure(suite: suite, name: name, value: value, unit: unit, target: target, meetsTarget: meets))
        if !json { print(text) }
    }

    // A runtime workload's name (e.g. `family`) selects that workload alone, for profiling.
    let workloadFilters = filters.filter { filter in RuntimeSuite.workloadNames.contains { $0.contains(filter) } }
    if selected("runtime") || !workloadFilters.isEmpty {
        if !json { print("R1 runtime, through AtomTestContext (median of repeated runs; target ≤ 0.20 of upstream)") }
        for m in RuntimeSuite.run(repetitions: quick ? 3 : 30, filters: workloadFilters) {
            let ratio = m.median / RuntimeSuite.anchors[m.name]!
            report("R1", m.name, m.median, "ns/\(m.unit)", target: "≤ 0.20 of upstream", meets: ratio <= 0.2,
                   text: "  \(m.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(formatted(nanoseconds: m.median)) per \(m.unit)  ±\(String(format: "%.0f", m.spread * 100))%  \(String(format: "%.3f", ratio)) of upstream")
            figures.append(Figure(suite: "R1", name: m.name + "-ratio", value: ratio, unit: "of upstream", target: "≤ 0.20", meetsTarget: ratio <= 0.2))
        }
    }
    if selected("recording") {
        let r = RecordingSuite.run(repetitions: quick ? 1 : 5)
        let ratio = r.on.median / r.off.median
        if !json { print("R2 recording overhead: \(RecordingSuite.transactions) transactions of a small Codable value, journal off/on interleaved") }
        report("R2", "journal-off", r.off.median, "ns/transaction", text: "  journal off  \(formatted(nanoseconds: r.off.median)) per transaction")
        report("R2", "journal-on", r.on.median, "ns/transaction", text: "  journal on   \(formatted(nanoseconds: r.on.median)) per transaction")
        report("R2", "ratio", ratio, "on/off", target: "≤ 1.5", meets: ratio <= 1.5, text: "  wall ratio   \(String(format: "%.2f", ratio)) (target ≤ 1.5: until the recorder's thread has written every transaction)")
        // Not the target figure: the app's own thread, before the closing flush waits for the
        // recorder's thread. It shows how the cost splits between the two threads.
        let mainRatio = r.onMainThread.median / r.off.median
        report("R2", "journal-on-main-thread", r.onMainThread.median, "ns/transaction",
               text: "  journal on, app thread only (before the flush)  \(formatted(nanoseconds: r.onMainThread.median)) per transaction")
        report("R2", "main-thread-ratio", mainRatio, "on/off", target: "≤ 1.5", meets: mainRatio <= 1.5,
               text: "  app-thread ratio  \(String(format: "%.2f", mainRatio)) (target ≤ 1.5; the flush then waits for the recorder's thread)")
        let timing = r.timedCPU.median / r.untimedCPU.median - 1
        report("R2", "timing-overhead-app-thread-cpu", timing, "timed/untimed - 1", target: "≤ 0.05", meets: timing <= 0.05,
               text: "  timing lines, the app thread's CPU time: \(formatted(nanoseconds: r.timedCPU.median)) timed vs \(formatted(nanoseconds: r.untimedCPU.median)) untimed per transaction = +\(String(format: "%.1f", timing * 100))% (target ≤ 5%)")
        report("R2", "timing-bytes-per-transaction", r.timingBytesPerTransaction, "bytes", target: "≤ 24", meets: r.timingBytesPerTransaction <= 24,
               text: "  timing lines, journal bytes per transaction: \(String(format: "%.1f", r.timingBytesPerTransaction)) (timed less untimed; target ≤ 24)")
        let size = r.bytesPerTransaction / r.valueBytes
        report("R3", "bytes-per-transaction-over-value", size, "ratio", target: "≤ 1.5", meets: size <= 1.5,
               text: "R3 journal size: \(String(format: "%.1f", r.bytesPerTransaction)) bytes per transaction / \(Int(r.valueBytes)) bytes of value = \(String(format: "%.2f", size)) (target ≤ 1.5)")
    }
    if selected("paced") {
        if !json { print("R2p commits at a pace, each gap apart, journal (untimed) off/on interleaved; the app thread's CPU in the commits alone") }
        for (workload, gap, off, on) in PacedRecordingSuite.run(repetitions: quick ? 1 : 5) {
            let added = on.median - off.median
            report("R2p", "paced-\(workload.replacingOccurrences(of: " ", with: "-"))-\(gap)us-added", added, "ns/commit",
                   text: "  \(workload.padding(toLength: 20, withPad: " ", startingAt: 0)) every \(String(format: "%3d", gap)) µs  off \(formatted(nanoseconds: off.median)), on \(formatted(nanoseconds: on.median)) per commit: recording adds \(formatted(nanoseconds: added)) (\(String(format: "%.2f", on.median / off.median))×)")
        }
    }
    if selected("recording") || selected("flight") {
        let f = FlightRecorderSuite.run(repetitions: quick ? 1 : 9)
        func median(_ samples: [Double]?) -> Double { samples.map { $0.sorted()[$0.count / 2] } ?? 0 }
        let cpu = (off: median(f.cpu[.off]), file: median(f.cpu[.file]), flight: median(f.cpu[.flight]))
        let wall = (off: median(f.wall[.off]), file: median(f.wall[.file]), flight: median(f.wall[.flight]))
        if !json { print("R2f flight recorder (\(FlightRecorderSuite.capacity >> 20) MB) beside a journal file: the app thread per transaction, the R2 workload, off/file/flight interleaved") }
        for (name, mode) in [("off", FlightRecorderSuite.Mode.off), ("file", .file), ("flight", .flight)] {
            report("R2f", "\(name)-app-thread-cpu", median(f.cpu[mode]), "ns/transaction",
                   text: "  \(name.padding(toLength: 7, withPad: " ", startingAt: 0)) app-thread CPU \(formatted(nanoseconds: median(f.cpu[mode]))), wall before the flush \(formatted(nanoseconds: median(f.wall[mode]))) per transaction")
        }
        let ratio = cpu.flight / cpu.file
        report("R2f", "flight-over-file-app-thread-cpu", ratio, "flight/file", target: "≤ 1.05", meets: ratio <= 1.05,
               text: "  flight/file  app-thread CPU \(String(format: "%.3f", ratio)) (target ≤ 1.05), wall \(String(format: "%.3f", wall.flight / wall.file))")
        report("R2f", "dump-milliseconds", median(f.dumpMilliseconds), "ms",
               text: "  dump of a full flight recorder: \(f.dumpBytes) bytes in \(String(format: "%.1f", median(f.dumpMilliseconds))) ms")
    }
    if selected("allocations") || selected("recording") {
        if let counts = try? AllocationSuite.run(transactions: quick ? 20_000 : 100_000) {
            if !json { print("R2a allocations per transaction once the buffers have grown (journal-allocations, malloc-interposer): app thread off → on; the recorder's and writer's threads") }
            for (name, label) in [("small", "a small Codable value"), ("derived", "the value and an atom derived from it"), ("recordable", "the small value, @JournalRecordable")] {
                guard let workload = counts[name], let off = workload["off"], let on = workload["on"] else { continue }
                let added = (on["app"] ?? 0) - (off["app"] ?? 0)
                report("R2a", "\(name)-app-thread-added", added, "allocations/transaction", target: "0", meets: added < 0.01,
                       text: "  \(label): app thread \(String(format: "%.2f", off["app"] ?? 0)) → \(String(format: "%.2f", on["app"] ?? 0)) (added \(String(format: "%.3f", added)), target 0); recorder and writer \(String(format: "%.2f", on["others"] ?? 0)) (target 0)")
                figures.append(Figure(suite: "R2a", name: "\(name)-recorder-threads", value: on["others"] ?? 0, unit: "allocations/transaction", target: "0", meetsTarget: (on["others"] ?? 0) < 0.01))
            }
            if let lines = counts["recordable-lines"]?["on"]?["others"] {
                report("R2a", "recordable-lines-recorder-threads", lines, "allocations/transaction", target: "0", meets: lines < 0.01,
                       text: "  the small value, @JournalRecordable, keyframes held off: recorder and writer \(String(format: "%.4f", lines)) per transaction line (target 0; keyframes allocate)")
            }
        } else if !json {
            print("R2a skipped: journal-allocations is not built next to atoms-bench (swift build -c release)")
        }
    }
    if selected("counter") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if let f = try? CounterSessionSuite.run(repetitions: quick ? 1 : 5, directory: directory) {
            let ratio = f.on / f.off
            if !json { print("R2c whole process: sample-counter fed \(CounterSessionSuite.increments) inc lines, journal off/on interleaved") }
            report("R2c", "journal-off", f.off, "s", text: "  journal off \(String(format: "%.3f", f.off)) s, on \(String(format: "%.3f", f.on)) s; start-up and exit alone (floor) \(String(format: "%.3f", f.startup)) s")
            report("R2c", "journal-on", f.on, "s", text: "  whole-process ratio \(String(format: "%.2f", ratio)) (target ≤ 1.10)")
            figures.append(Figure(suite: "R2c", name: "ratio", value: ratio, unit: "on/off", target: "≤ 1.10", meetsTarget: ratio <= 1.10))
        } else if !json {
            print("R2c skipped: sample-counter is not built next to atoms-bench (swift build -c release)")
        }
    }
    if selected("large") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let f = try LargeStateSuite.run(repetitions: quick ? 1 : 5, directory: directory)
            let off = f.off.sorted()[f.off.count / 2]
            let on = f.on.sorted()[f.on.count / 2]
            let appThread = f.onAppThread.sorted()[f.onAppThread.count / 2]
            if !json { print("Large state: \(LargeStateSuite.todos) todos added, then \(LargeStateSuite.toggles) toggles of one flag (\(f.transactions) transactions), journal off/on interleaved") }
            report("R2b", "journal-off", off, "s", text: "  R2b journal off  \(String(format: "%.3f", off)) s")
            report("R2b", "journal-on", on, "s", text: "  R2b journal on   \(String(format: "%.3f", on)) s (app thread before close \(String(format: "%.3f", appThread)) s)")
            report("R2b", "ratio", on / off, "on/off", target: "≤ 1.25", meets: on / off <= 1.25,
                   text: "  R2b ratio        \(String(format: "%.2f", on / off)) (target ≤ 1.25)")
            let recordableOff = f.recordableOff.sorted()[f.recordableOff.count / 2]
            let recordableOn = f.recordableOn.sorted()[f.recordableOn.count / 2]
            let recordableAppThread = f.recordableOnAppThread.sorted()[f.recordableOnAppThread.count / 2]
            report("R2b-recordable", "journal-off", recordableOff, "s", text: "  R2b with @JournalRecordable values, journal off  \(String(format: "%.3f", recordableOff)) s")
            report("R2b-recordable", "journal-on", recordableOn, "s", text: "  R2b with @JournalRecordable values, journal on   \(String(format: "%.3f", recordableOn)) s (app thread before close \(String(format: "%.3f", recordableAppThread)) s; journal \(f.recordableFileBytes) bytes, \(f.fileBytes) through Codable)")
            report("R2b-recordable", "ratio", recordableOn / recordableOff, "on/off", target: "≤ 1.25", meets: recordableOn / recordableOff <= 1.25,
                   text: "  R2b ratio with @JournalRecordable values \(String(format: "%.2f", recordableOn / recordableOff)) (target ≤ 1.25)")
            let untimedCPU = f.untimedCPU.sorted()[f.untimedCPU.count / 2], timedCPU = f.timedCPU.sorted()[f.timedCPU.count / 2]
            let timing = timedCPU / untimedCPU - 1
            report("R2b", "timing-overhead-app-thread-cpu", timing, "timed/untimed - 1", target: "≤ 0.05", meets: timing <= 0.05,
                   text: "  R2b timing lines, the app thread's CPU time: \(formatted(nanoseconds: timedCPU * 1e9 / Double(f.transactions))) timed vs \(formatted(nanoseconds: untimedCPU * 1e9 / Double(f.transactions))) untimed per transaction = +\(String(format: "%.1f", timing * 100))% (target ≤ 5%); journal \(f.timedFileBytes / f.transactions) vs \(f.fileBytes / f.transactions) bytes per transaction")
            let perTransaction = Double(f.fileBytes) / Double(f.transactions)
            report("R3b", "bytes-per-transaction", perTransaction, "bytes", target: "≤ 400", meets: perTransaction <= 400,
                   text: "  R3b journal size \(f.fileBytes) bytes = \(String(format: "%.0f", perTransaction)) bytes per transaction (target ≤ 400)")
            let keyframeShare = Double(f.keyframeBytes) / Double(max(f.fileBytes, 1))
            report("R3b", "keyframe-share", keyframeShare, "ratio",
                   text: "    of which \(f.keyframes) keyframes \(f.keyframeBytes) bytes = \(String(format: "%.1f", keyframeShare * 100))% of the journal, \(String(format: "%.1f", Double(f.keyframeBytes) / Double(max(f.transactions, 1)))) bytes per transaction")
            report("large", "log-over-wc-l", f.logSeconds / f.wcSeconds, "ratio",
                   text: "  log \(String(format: "%.3f", f.logSeconds)) s, stats \(String(format: "%.3f", f.statsSeconds)) s, show at the middle \(String(format: "%.3f", f.showSeconds)) s; wc -l (less a process start) \(String(format: "%.4f", f.wcSeconds)) s: log \(String(format: "%.1f", f.logSeconds / f.wcSeconds))×, stats \(String(format: "%.1f", f.statsSeconds / f.wcSeconds))× wc -l")
            figures.append(Figure(suite: "large", name: "stats-over-wc-l", value: f.statsSeconds / f.wcSeconds, unit: "ratio", target: nil, meetsTarget: nil))
            figures.append(Figure(suite: "large", name: "show-seconds", value: f.showSeconds, unit: "s", target: nil, meetsTarget: nil))
            report("large", "find-first-over-stats", f.findSeconds / f.statsSeconds, "ratio",
                   text: "  find --first with no match (every step, the 500-todo array kept current) \(String(format: "%.3f", f.findSeconds)) s; stats \(String(format: "%.3f", f.statsSeconds)) s; ratio \(String(format: "%.2f", f.findSeconds / f.statsSeconds))")
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: large-state suite failed: \(error)\n".utf8))
        }
    }
    if selected("inspector") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let f = try InspectorSuite.run(directory: directory, transactions: quick ? 50_000 : 1_000_000)
            let seek = f.seekMilliseconds.sorted()
            if !json { print("R4–R7 inspector on a generated journal (temp dir, deleted): \(f.transactions) transactions, \(f.fileBytes) bytes, generated in \(String(format: "%.1f", f.generateSeconds)) s") }
            let openRatio = f.openSeekSeconds / f.wcSeconds
            report("R4", "open-seek-over-wc-l", openRatio, "ratio", target: "≤ 0.05", meets: openRatio <= 0.05,
                   text: "  R4 open + seek random step \(String(format: "%.5f", f.openSeekSeconds)) s; wc -l \(String(format: "%.3f", f.wcSeconds)) s; ratio \(String(format: "%.3f", openRatio)) (target ≤ 0.05)")
            if let show = f.showProcessSeconds, let version = f.versionProcessSeconds {
                let processRatio = show / version
                report("R4p", "show-mid-over-version", processRatio, "ratio", target: "≤ 2.0", meets: processRatio <= 2.0,
                       text: "  R4p atoms-inspect show --at MID \(String(format: "%.4f", show)) s; atoms-inspect --version \(String(format: "%.4f", version)) s; ratio \(String(format: "%.2f", processRatio)) (target ≤ 2.0)")
            } else if !json {
                print("  R4p skipped: atoms-inspect is not built next to atoms-bench (swift build -c release)")
            }
            report("R5", "seek-median", seek[seek.count / 2], "ms", target: "≤ 10 ms", meets: seek.last! <= 10,
                   text: "  R5 seek between random steps: median \(String(format: "%.2f", seek[seek.count / 2])) ms, max \(String(format: "%.2f", seek.last!)) ms (target ≤ 10 ms)")
            report("R6", "diff-first-last", f.diffMilliseconds, "ms",
                   text: "  R6 diff first↔last \(String(format: "%.2f", f.diffMilliseconds)) ms" + (f.jqSeconds.map { "; jq final values \(String(format: "%.2f", $0)) s; ratio jq/ours \(String(format: "%.0f", $0 * 1000 / f.diffMilliseconds))" } ?? "; jq not installed: comparison skipped"))
            if let jq = f.jqSeconds {
                figures.append(Figure(suite: "R6", name: "jq-over-diff", value: jq * 1000 / f.diffMilliseconds, unit: "ratio", target: nil, meetsTarget: nil))
            }
            let rss = Double(f.peakRSSBytes) / Double(f.fileBytes)
            let measured = f.peakRSSOfAtomsInspect ? "atoms-inspect show --at last" : "show --at last in atoms-bench (atoms-inspect or peak-rss not built: swift build -c release)"
            report("R7", "peak-rss-over-file-size", rss, "ratio", target: "≤ 0.25", meets: rss <= 0.25,
                   text: "  R7 peak RSS of \(measured) \(f.peakRSSBytes) bytes = \(String(format: "%.3f", rss)) of the file size (target ≤ 0.25)")
            if let version = f.versionPeakRSSBytes {
                let megabytes = Double(version) / 1_000_000
                report("R7v", "version-peak-rss", megabytes, "MB", target: "≤ 12 MB", meets: megabytes <= 12,
                       text: "  R7v peak RSS of atoms-inspect --version \(version) bytes = \(String(format: "%.1f", megabytes)) MB (target ≤ 12 MB)")
            }
            if let floor = f.wcPeakRSSBytes {
                let megabytes = Double(floor) / 1_000_000
                report("R7", "wc-l-peak-rss", megabytes, "MB",
                       text: "  floor: peak RSS of wc -l on the same journal \(floor) bytes = \(String(format: "%.1f", megabytes)) MB (\(String(format: "%.3f", Double(floor) / Double(f.fileBytes))) of the file size)")
            }
            if let log = f.logPeakRSSBytes, let version = f.versionPeakRSSBytes {
                let ratio = Double(log) / Double(version)
                report("R7", "log-peak-rss-over-version", ratio, "ratio", target: "≤ 1.2", meets: ratio <= 1.2,
                       text: "  peak RSS of atoms-inspect log \(log) bytes = \(String(format: "%.2f", ratio))× --version's (target ≤ 1.2)")
            }
            if let processes = InspectorSuite.listingProcesses(path: f.path) {
                let (log, stats) = (processes.log / processes.wc, processes.stats / processes.wc)
                report("inspector", "log-over-wc-l-processes", log, "ratio", target: "≤ 20", meets: log <= 20,
                       text: "  atoms-inspect log \(String(format: "%.3f", processes.log)) s, stats \(String(format: "%.3f", processes.stats)) s, wc -l \(String(format: "%.3f", processes.wc)) s (processes): log \(String(format: "%.1f", log))× (target ≤ 20), stats \(String(format: "%.1f", stats))× (target ≤ 2) wc -l")
                figures.append(Figure(suite: "inspector", name: "stats-over-wc-l-processes", value: stats, unit: "ratio", target: "≤ 2", meetsTarget: stats <= 2))
            }
            let listing = try LargeStateSuite.inspect(path: f.path)
            report("inspector", "log-over-wc-l", listing.log / listing.wc, "ratio",
                   text: "  log \(String(format: "%.3f", listing.log)) s, stats \(String(format: "%.3f", listing.stats)) s; wc -l (less a process start) \(String(format: "%.3f", listing.wc)) s: log \(String(format: "%.1f", listing.log / listing.wc))×, stats \(String(format: "%.1f", listing.stats / listing.wc))× wc -l")
            figures.append(Figure(suite: "inspector", name: "stats-over-wc-l", value: listing.stats / listing.wc, unit: "ratio", target: "≤ 5", meetsTarget: listing.stats / listing.wc <= 5))
            let find = try InspectorSuite.findFirst(path: f.path)
            let findRatio = find.find / find.stats
            report("find", "find-first-over-stats", findRatio, "ratio", target: "≤ 1.5", meets: findRatio <= 1.5,
                   text: "  find --first (match at step \(find.step) of \(f.transactions)) \(String(format: "%.3f", find.find)) s; stats \(String(format: "%.3f", find.stats)) s; ratio \(String(format: "%.2f", findRatio)) (target ≤ 1.5)")
            if let counter = try InspectorSuite.findFirstOnIncrements(directory: directory, transactions: quick ? 50_000 : 1_000_000) {
                let ratio = counter.find / counter.stats
                report("find", "find-first-over-stats-increments", ratio, "ratio", target: "≤ 2.0", meets: ratio <= 2.0,
                       text: "  on sample-counter's journal of \(quick ? 50_000 : 1_000_000) inc (the atom written at every step): atoms-inspect find --first \(String(format: "%.3f", counter.find)) s; stats \(String(format: "%.3f", counter.stats)) s (processes); ratio \(String(format: "%.2f", ratio)) (target ≤ 2.0)")
            }
            if let processes = try InspectorSuite.findFirstProcesses(path: f.path) {
                let ratio = processes.find / processes.stats
                report("find", "find-first-over-stats-processes", ratio, "ratio", target: "≤ 2.0", meets: ratio <= 2.0,
                       text: "  atoms-inspect find --first \(String(format: "%.3f", processes.find)) s; atoms-inspect stats \(String(format: "%.3f", processes.stats)) s (processes); ratio \(String(format: "%.2f", ratio)) (target ≤ 2.0)")
            }
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: inspector suite failed: \(error)\n".utf8))
        }
    }
    if selected("live") {
        do {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-live-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let latencies = try LiveSuite.followLatencies(directory: directory, commits: quick ? 10 : 40).sorted()
            if !json { print("Live journals") }
            report("live", "follow-latency-max", latencies.last!, "ms", target: "≤ 250 ms", meets: latencies.last! <= 250,
                   text: "  follow latency, commit → line handed over, flush every 100 ms: median \(String(format: "%.0f", latencies[latencies.count / 2])) ms, max \(String(format: "%.0f", latencies.last!)) ms over \(latencies.count) commits (target ≤ 250 ms)")
            let count = quick ? 1_000_000 : 10_000_000
            let limit = 4 << 20
            let bounded = try LiveSuite.bounded(directory: directory, transactions: count, limit: limit)
            let ratio = Double(bounded.largest) / Double(limit)
            report("live", "bounded-bytes-over-limit", ratio, "ratio", target: "≤ 1.5", meets: ratio <= 1.5,
                   text: "  bounded: \(count) transactions, limit \(limit) bytes: at most \(bounded.largest) bytes on disk (\(bounded.final) at the end) = \(String(format: "%.2f", ratio)) of the limit (target ≤ 1.5); recorded in \(String(format: "%.1f", bounded.seconds)) s")
            let toggles = quick ? 5_000 : 50_000
            let large = try LiveSuite.largeBounded(directory: directory, toggles: toggles, limit: 1 << 20)
            let largeRatio = Double(large.largestBytes) / Double(1 << 20)
            report("live", "large-bounded-bytes-over-limit", largeRatio, "ratio", target: "≤ 1.5", meets: largeRatio <= 1.5,
                   text: "  bounded, large state: 500 todos then \(toggles) toggles, limit 1 MB: at most \(large.largestBytes) bytes on disk = \(String(format: "%.2f", largeRatio)) of the limit, \(large.segments) segments kept, each opening with a \(large.keyframeBytes)-byte keyframe (the same session unbounded: \(large.unboundedBytes) bytes)")
            report("live", "large-bounded-recording-over-unbounded", large.boundedSeconds / large.unboundedSeconds, "ratio",
                   text: "    recorded bounded in \(String(format: "%.2f", large.boundedSeconds)) s, unbounded in \(String(format: "%.2f", large.unboundedSeconds)) s: \(String(format: "%.2f", large.boundedSeconds / large.unboundedSeconds))×")
            report("live", "large-bounded-open-last-over-wc-l", large.openLastSeconds / large.wcSeconds, "ratio",
                   text: "    open the folder + state at the last step \(String(format: "%.4f", large.openLastSeconds)) s; wc -l on its segments (less a process start) \(String(format: "%.4f", large.wcSeconds)) s: \(String(format: "%.2f", large.openLastSeconds / large.wcSeconds))×")
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: live suite failed: \(error)\n".utf8))
        }
    }
    if selected("churn") {
        do {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-churn-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let members = quick ? 20_000 : 100_000
            if !json { print("Atom churn: \(members) family members watched one after another, each released when the next is watched, a counter ticking beside them (one process per run; the recorder flushed every 1,000 members)") }
            let off = try ChurnSuite.run(.off, members: members, directory: directory)
            report("churn", "journal-off-seconds", off.seconds, "s",
                   text: "  journal off  \(String(format: "%.3f", off.seconds)) s, \(off.transactions) transactions, peak memory \(off.peakBytes >> 10) KB")
            for mode in [ChurnSuite.Mode.unbounded, .bounded] {
                let run = try ChurnSuite.run(mode, members: members, directory: directory)
                let perTransaction = Double(run.bytes) / Double(max(run.transactions, 1))
                report("churn", "\(mode.rawValue)-seconds", run.seconds, "s",
                       text: "  \(mode == .bounded ? "bounded 1 MB" : "unbounded   ") \(String(format: "%.3f", run.seconds)) s (\(String(format: "%.1f", run.seconds / max(off.seconds, 1e-9)))× off), peak memory \(run.peakBytes >> 10) KB (off: \(off.peakBytes >> 10) KB), journal \(run.bytes) bytes" + (mode == .bounded ? " on disk = \(String(format: "%.2f", Double(run.bytes) / Double(ChurnSuite.limit))) of the limit, largest keyframe \(run.largestKeyframe) bytes" : " = \(String(format: "%.1f", perTransaction)) bytes per transaction, largest keyframe \(run.largestKeyframe) bytes"))
                figures.append(Figure(suite: "churn", name: "\(mode.rawValue)-peak-bytes", value: Double(run.peakBytes), unit: "bytes", target: nil, meetsTarget: nil))
                figures.append(Figure(suite: "churn", name: "\(mode.rawValue)-largest-keyframe", value: Double(run.largestKeyframe), unit: "bytes", target: nil, meetsTarget: nil))
                if mode == .unbounded {
                    figures.append(Figure(suite: "churn", name: "unbounded-bytes-per-transaction", value: perTransaction, unit: "bytes", target: nil, meetsTarget: nil))
                    // "Bytes per step": a step is one member shown (its creation,
                    // the previous member's release and the counter's tick).
                    let perMember = Double(run.bytes) / Double(members)
                    report("churn", "unbounded-bytes-per-member", perMember, "bytes", target: "≤ 250", meets: perMember <= 250,
                           text: "    \(String(format: "%.1f", perMember)) bytes per member (target ≤ 250); keyframes \(run.keyframeBytes) bytes = \(String(format: "%.1f", 100 * Double(run.keyframeBytes) / Double(max(run.bytes, 1))))% of the journal, \(String(format: "%.1f", Double(run.keyframeBytes) / Double(max(run.transactions, 1)))) bytes per transaction")
                } else {
                    figures.append(Figure(suite: "churn", name: "bounded-bytes-over-limit", value: Double(run.bytes) / Double(ChurnSuite.limit), unit: "ratio", target: "≤ 1.5", meetsTarget: Double(run.bytes) <= 1.5 * Double(ChurnSuite.limit)))
                }
            }
            // Linear, not quadratic: the time per member stays flat as the session grows.
            var scaling: [String] = []
            for count in [5_000, 10_000, 20_000] {
                let run = try ChurnSuite.run(.bounded, members: count, directory: directory)
                let floor = try ChurnSuite.run(.off, members: count, directory: directory)
                figures.append(Figure(suite: "churn", name: "bounded-\(count)-seconds", value: run.seconds, unit: "s", target: nil, meetsTarget: nil))
                scaling.append("\(count): \(String(format: "%.3f", run.seconds)) s (\(String(format: "%.1f", run.seconds * 1e6 / Double(count))) µs per member, peak \(run.peakBytes >> 10) KB, largest keyframe \(run.largestKeyframe) B; off \(String(format: "%.3f", floor.seconds)) s)")
            }
            if !json { print("  bounded 1 MB by length  " + scaling.joined(separator: ", ")) }
            // Reading such a session: each transaction that shows a member declares one, which
            // must not make a reader go over every declaration again (`log` did, quadratic).
            if let reading = try ChurnSuite.reading(members: 20_000, directory: directory) {
                report("churn", "log-over-wc-l", reading.log / reading.wc, "ratio", target: "≤ 20", meets: reading.log / reading.wc <= 20,
                       text: "  reading 20000 members: log \(String(format: "%.3f", reading.log)) s, log --atom \(String(format: "%.3f", reading.logAtom)) s, wc -l \(String(format: "%.4f", reading.wc)) s (processes, medians of 5): log \(String(format: "%.1f", reading.log / reading.wc))× wc -l, log --atom \(String(format: "%.1f", reading.logAtom / reading.wc))×")
                figures.append(Figure(suite: "churn", name: "log-atom-over-wc-l", value: reading.logAtom / reading.wc, unit: "ratio", target: "≤ 20", meetsTarget: reading.logAtom / reading.wc <= 20))
            }
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: churn suite failed: \(error)\n".utf8))
        }
    }
    if selected("report") {
        do {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-report-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let todo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../samples/journals/todo.jsonl").standardized.path
            let f = try await ReportSuite.run(directory: directory, transactions: quick ? 10_000 : 100_000, todoSample: todo, renders: quick ? 1 : 3)
            if !json { print("HTML report of the 500-todo session: \(f.transactions) transactions, journal \(f.journalBytes) bytes") }
            let beyond = Double(f.reportBytes - f.valueBytes) / Double(f.transactions)
            report("report", "bytes-per-transaction-beyond-values", beyond, "bytes", target: "≤ 20", meets: beyond <= 20,
                   text: "  report \(f.reportBytes) bytes (\(f.keyframes) keyframes), of which value JSON \(f.valueBytes) bytes: \(String(format: "%.1f", beyond)) bytes per transaction beyond the values (target ≤ 20)")
            report("report", "write-over-log", f.buildSeconds / f.logSeconds, "ratio",
                   text: "  written in \(String(format: "%.2f", f.buildSeconds)) s (every value decoded and re-encoded); same journal, same run: log \(String(format: "%.2f", f.logSeconds)) s, wc -l \(String(format: "%.3f", f.wcSeconds)) s: \(String(format: "%.1f", f.buildSeconds / f.logSeconds))× log")
            if f.firstRender.isEmpty {
                if !json { print("  first render skipped: chromium is not installed (apt-get install chromium)") }
            } else {
                let render = InspectorSuite.median(f.firstRender)
                let floor = InspectorSuite.median(f.floorRender)
                report("report", "first-render", render, "ms", target: "≤ 2000 ms", meets: (f.firstRender.max() ?? .infinity) <= 2000,
                       text: "  first render in headless Chromium: median \(String(format: "%.0f", render)) ms, max \(String(format: "%.0f", f.firstRender.max() ?? 0)) ms over \(f.firstRender.count) loads (target ≤ 2000 ms); the 260-step todo report, same run: \(String(format: "%.0f", floor)) ms")
                let moves = f.moves.sorted()
                report("report", "move-to-random-step-max", moves.last ?? 0, "ms",
                       text: "  moving to a random step in the page: median \(String(format: "%.1f", moves[moves.count / 2])) ms, max \(String(format: "%.1f", moves.last ?? 0)) ms over \(moves.count) moves")
            }
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: report suite failed: \(error)\n".utf8))
        }
    }
    if selected("replay") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-replay-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            // Fifteen pairs: a run of both takes half a second, and this machine's times of the
            // same build move by a tenth from one run of five to the next.
            let f = try ReplaySuite.run(repetitions: quick ? 1 : 15, directory: directory)
            let writes = InspectorSuite.median(f.writes)
            let replays = InspectorSuite.median(f.replays)
            let ratio = replays / writes
            // Each replay over the writes run just before it, so a slow stretch of the machine
            // moves both: the spread of the pairs says how far one run can be trusted.
            let paired = zip(f.replays, f.writes).map { $0 / $1 }.sorted()
            if !json { print("Replay of the 500-todo session (\(f.transactions) transactions; 2 atoms driven, 3 checked) against the same writes on an AtomTestContext (medians of \(f.writes.count))") }
            report("replay", "writes-seconds", writes, "s", text: "  the writes alone \(String(format: "%.3f", writes)) s")
            report("replay", "replay-seconds", replays, "s", text: "  the replay \(String(format: "%.3f", replays)) s (the journal opened and read, the writes, the checks)")
            report("replay", "replay-over-writes", ratio, "ratio", target: "≤ 3", meets: ratio <= 3,
                   text: "  ratio \(String(format: "%.2f", ratio)) (target ≤ 3)")
            report("replay", "paired-ratio-median", InspectorSuite.median(paired), "ratio",
                   text: "  each replay over the writes before it: median \(String(format: "%.2f", InspectorSuite.median(paired))), \(String(format: "%.2f", paired.first ?? 0))–\(String(format: "%.2f", paired.last ?? 0)) over \(paired.count)")
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: replay suite failed: \(error)\n".utf8))
        }
    }
    // `replay` runs both; `replay-check` the replay alone, `shrink` the shrink alone.
    if selected("replay-shrink") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-shrink-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let f = try ShrinkSuite.run(repetitions: quick ? 1 : 3, directory: directory)
            func spread(_ values: [Double]) -> String {
                "median \(String(format: "%.2f", InspectorSuite.median(values))) s (\(String(format: "%.2f", values.min() ?? 0))–\(String(format: "%.2f", values.max() ?? 0)) over \(values.count))"
            }
            if !json { print("Shrinking generated 1,000-write sessions to 1-minimal (JournalReplay.shrink; the value bug's writes alone, same run: \(spread(f.writes)))") }
            let value = InspectorSuite.median(f.valueSeconds)
            report("shrink", "value-bug-seconds", value, "s", target: "≤ 10 s, 1-minimal", meets: (f.valueSeconds.max() ?? .infinity) <= 10 && f.isComplete && f.valueKept == 1,
                   text: "  a bug that needs one value (a todo among 500): \(spread(f.valueSeconds)), \(f.valueTrials) trials, \(f.valueKept) write kept, \(f.valueElements) element of the list left (target ≤ 10 s, 1 write, 1 element)")
            report("shrink", "value-bug-elements", Double(f.valueElements), "elements", target: "1", meets: f.valueElements == 1, text: "")
            let sequence = InspectorSuite.median(f.sequenceSeconds)
            report("shrink", "sequence-bug-seconds", sequence, "s", target: "≤ 10 s, 1-minimal", meets: (f.sequenceSeconds.max() ?? .infinity) <= 10 && f.isComplete && f.sequenceKept == 7,
                   text: "  a bug that needs 7 writes through an effect: \(spread(f.sequenceSeconds)), \(f.sequenceTrials) trials, \(f.sequenceKept) writes kept (target ≤ 10 s, 7 writes)")
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: shrink suite failed: \(error)\n".utf8))
        }
    }
    if selected("export") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-export-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            if let f = try ExportSuite.run(directory: directory, transactions: quick ? 100_000 : 1_000_000) {
                let ratio = f.exportSeconds / f.logSeconds
                if !json { print("Export of the generated counter journal (temp dir, deleted): \(f.transactions) transactions, \(f.fileBytes) bytes; whole processes, same run") }
                report("export", "ndjson-over-log", ratio, "ratio", target: "≤ 5", meets: ratio <= 5,
                       text: "  export --format ndjson \(String(format: "%.2f", f.exportSeconds)) s (\(f.exportedBytes) bytes of tables); log > file \(String(format: "%.2f", f.logSeconds)) s; ratio \(String(format: "%.2f", ratio)) (target ≤ 5)")
                let todoRatio = f.todoExportSeconds / f.todoLogSeconds
                report("export", "todo-ndjson-over-log", todoRatio, "ratio",
                       text: "  the 500-todo session, \(f.todoTransactions) transactions: export \(String(format: "%.3f", f.todoExportSeconds)) s; log > file \(String(format: "%.3f", f.todoLogSeconds)) s; ratio \(String(format: "%.2f", todoRatio))")
                for (transactions, bytes) in f.peakRSS {
                    report("export", "peak-rss-\(transactions)", Double(bytes), "bytes",
                           text: "  peak RSS of export, \(transactions) transactions: \(bytes >> 10) KB")
                }
            } else if !json {
                print("Export skipped: atoms-inspect is not built next to atoms-bench (swift build -c release)")
            }
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: export suite failed: \(error)\n".utf8))
        }
    }
    if selected("dap") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-dap-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let todo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../samples/journals/todo.jsonl").standardized.path
            let transactions = quick ? 200_000 : 1_000_000
            // `--inspector PATH`: every figure through that atoms-inspect's processes (a
            // release build driven by this one, when atoms-bench's own release build is out of
            // reach).
            let inspector = arguments.firstIndex(of: "--inspector").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
            let f = try inspector.map { try DapSuite.runProcesses(inspector: $0, todo: todo, directory: directory, transactions: transactions, samples: quick ? 5 : 11) }
                ?? DapSuite.run(todo: todo, directory: directory, transactions: transactions, samples: quick ? 5 : 11)
            if !json { print("atoms-inspect dap: \(inspector.map { "through \($0) dap processes over pipes" } ?? "the adapter in process (as the executable, framing aside)"); \(f.transactions)-step generated counter journal (temp dir, deleted)") }
            report("dap", "initialize-to-stopped", f.firstStopMilliseconds, "ms", target: "≤ 100 ms", meets: f.firstStopMilliseconds <= 100,
                   text: "  initialize → launch → configurationDone → stopped on samples/journals/todo.jsonl (runs to its last step): median \(String(format: "%.2f", f.firstStopMilliseconds)) ms (target ≤ 100 ms)" + (f.versionProcessMilliseconds.map { "; atoms-inspect --version as a process, the floor: \(String(format: "%.2f", $0)) ms" } ?? ""))
            if inspector == nil, let process = f.firstStopProcessMilliseconds {
                report("dap", "initialize-to-stopped-process", process, "ms", target: "≤ 100 ms", meets: process <= 100,
                       text: "    the same through an atoms-inspect dap process and its pipes, start to stopped: median \(String(format: "%.1f", process)) ms")
            }
            report("dap", "next-with-stack-and-variables", f.nextMilliseconds, "ms", target: "≤ 20 ms", meets: f.nextMilliseconds <= 20,
                   text: "  next + stackTrace + scopes + variables at random steps: median \(String(format: "%.2f", f.nextMilliseconds)) ms (target ≤ 20 ms)")
            report("dap", "stepBack-with-stack-and-variables", f.stepBackMilliseconds, "ms", target: "≤ 20 ms", meets: f.stepBackMilliseconds <= 20,
                   text: "  stepBack + stackTrace + scopes + variables at random steps: median \(String(format: "%.2f", f.stepBackMilliseconds)) ms (target ≤ 20 ms)")
            let ratio = f.continueSeconds / f.findSeconds
            report("dap", "continue-to-data-breakpoint-over-find", ratio, "ratio", target: "≤ 2", meets: ratio <= 2,
                   text: "  continue to a data breakpoint \(f.transactions / 100 * 90) steps ahead \(String(format: "%.3f", f.continueSeconds)) s; find --where --first, the same change \(String(format: "%.3f", f.findSeconds)) s; ratio \(String(format: "%.2f", ratio)) (target ≤ 2)")
            report("dap", "first-set-breakpoints", f.firstLineBreakpointsSeconds, "s",
                   text: "  the first setBreakpoints of a session (one pass indexing every step's write site) \(String(format: "%.3f", f.firstLineBreakpointsSeconds)) s")
        } catch {
            FileHandle.standardError.write(Data("atoms-bench: dap suite failed: \(error)\n".utf8))
        }
    }
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: (try? encoder.encode(figures)) ?? Data(), as: UTF8.self))
    }
}

await runBenchmarks()
