import AtomsJournalReader
import Testing
@testable import AtomsInspector

/// The slowest transactions are the `slowest` longest, slowest first, equal times by step,
/// kept as the transactions come rather than sorted whole.
struct SlowestTransactionsTests {
    /// Transactions 1… whose whole times are `durations` (nanoseconds, all in the runtime).
    private static func timed(_ durations: [Int]) -> TimedSteps {
        let transactions = durations.enumerated().map { index, duration in
            TimedSteps.Transaction(
                step: index + 1, cause: "set", at: nil, origin: 0, unchanged: [],
                timing: TimingLine(seq: index + 1, start: 0, runtime: duration, observers: 0, effects: 0, subscribers: 0)
            )
        }
        return TimedSteps(steps: 1...max(1, durations.count), transactions: transactions, declarations: [:])
    }

    @Test(arguments: [
        (slowest: 3, steps: [2, 3, 5]),
        (slowest: 4, steps: [2, 3, 5, 8]),
        (slowest: 1, steps: [2]),
        (slowest: 0, steps: []),
        (slowest: 20, steps: [2, 3, 5, 8, 6, 1, 7, 4]),
    ])
    func theLongestComeFirstAndEqualTimesByStep(slowest: Int, steps: [Int]) {
        let profile = Profile(Self.timed([5, 9, 9, 1, 9, 7, 2, 8]), slowest: slowest)
        #expect(profile.slowest.map(\.step) == steps)
        #expect(profile.slowest.map(\.totalNs) == profile.slowest.map(\.totalNs).sorted(by: >))
    }
}
