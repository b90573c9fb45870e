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
