import Foundation

// atoms-bench: release-built benchmarks.
// `swift run -c release atoms-bench [WORKLOAD-FILTER…] [--json] [--quick]`.

@MainActor
func runBenchmarks() {
    let json = CommandLine.arguments.contains("--json")
    let filters = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
    let repetitions = CommandLine.arguments.contains("--quick") ? 3 : 30
    let measurements = RuntimeSuite.run(repetitions: repetitions, filters: Array(filters))
    if json {
        let rows = measurements.map { m -> String in
            let anchor = RuntimeSuite.anchors[m.name].map { String(format: "%.4f", m.median / $0) } ?? "null"
            return #"{"name":"\#(m.name)","unit":"\#(m.unit)","median_ns":\#(m.median),"spread":\#(m.spread),"ratio_to_upstream":\#(anchor)}"#
        }
        print("[" + rows.joined(separator: ",") + "]")
        return
    }
    if filters.isEmpty || filters.contains(where: { "recording".contains($0) }) {
        let recording = RecordingSuite.run(repetitions: CommandLine.arguments.contains("--quick") ? 1 : 5)
        print("R2 recording overhead: \(RecordingSuite.transactions) transactions of a small Codable value (target ratio ≤ 1.10)")
        print("  journal off  \(formatted(nanoseconds: recording.off.median)) per transaction")
        print("  journal on   \(formatted(nanoseconds: recording.on.median)) per transaction")
        print("  ratio        \(String(format: "%.2f", recording.on.median / recording.off.median))")
        print("R3 journal size: \(String(format: "%.1f", recording.bytesPerTransaction)) bytes per transaction / \(Int(recording.valueBytes)) bytes of value = \(String(format: "%.2f", recording.bytesPerTransaction / recording.valueBytes)) (target ≤ 1.5)")
    }
    guard !measurements.isEmpty else { return }
    print("R1 runtime (median over repeated runs; target: at most 0.20 of upstream)")
    for m in measurements {
        let anchor = RuntimeSuite.anchors[m.name]
        let ratio = anchor.map { String(format: "%.3f of upstream", m.median / $0) } ?? ""
        print("  \(m.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(formatted(nanoseconds: m.median)) per \(m.unit)  ±\(String(format: "%.0f", m.spread * 100))%  \(ratio)")
    }
}

MainActor.assumeIsolated {
    runBenchmarks()
}
