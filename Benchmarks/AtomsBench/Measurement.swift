import Foundation

/// Timings of repeated runs of one workload.
struct Measurement {
    let name: String
    /// Nanoseconds per unit (update or atom), one entry per run.
    let samples: [Double]
    let unit: String

    var median: Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    /// Half the distance between the 10th and 90th percentiles, relative to the median.
    var spread: Double {
        let sorted = samples.sorted()
        let low = sorted[sorted.count / 10]
        let high = sorted[(sorted.count * 9) / 10]
        return (high - low) / 2 / median
    }
}

/// Wall time of `body` in nanoseconds.
func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// CPU nanoseconds the calling thread spends in `body`: unlike wall time, not counting the
/// time other threads (the recorder's, other processes) keep the core from it.
func threadCPUNanoseconds(_ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }
    let start = now()
    body()
    return now() - start
}

/// Formats nanoseconds with a readable unit.
func formatted(nanoseconds value: Double) -> String {
    switch value {
    case ..<1_000: String(format: "%.0f ns", value)
    case ..<1_000_000: String(format: "%.2f µs", value / 1_000)
    default: String(format: "%.3f ms", value / 1_000_000)
    }
}
