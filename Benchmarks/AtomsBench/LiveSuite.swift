import Atoms
import AtomsInspector
import AtomsJournal
import Foundation
import Synchronization

/// Journals left on: how soon `log --follow` prints a commit, and how much disk a bounded
/// journal takes over a long recording.
@MainActor
enum LiveSuite {
    /// Milliseconds from each commit to `log --follow` (its code, in this process, on its own
    /// thread) handing over the commit's line, with the recorder flushing every 100 ms.
    static func followLatencies(directory: URL, commits: Int) throws -> [Double] {
        let path = directory.appendingPathComponent("follow.jsonl").path
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, flush: .interval(milliseconds: 100), program: "atoms-bench")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(BenchCounterAtom(id: 0))
        let arrivals = Mutex<[Int: Date]>([:])
        let stop = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            try? LogCommand.follow(path: path, options: .init(), shouldStop: { stop.load(ordering: .relaxed) }) { event in
                guard case .line(let text) = event, let step = Int(text.split(separator: " ").first ?? "") else { return }
                let now = Date()
                arrivals.withLock { $0[step] = now }
            }
            finished.signal()
        }.start()
        var committed: [Int: Date] = [:]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<commits {
            context[BenchCounterAtom(id: 0)] += 1
            committed[root.store.committedTransactions] = Date()
            // Commits at moments unrelated to the flush interval.
            usleep(UInt32.random(in: 20_000...90_000, using: &random))
        }
        let last = root.store.committedTransactions
        let deadline = Date().addingTimeInterval(5)
        while arrivals.withLock({ $0[last] }) == nil, Date() < deadline { usleep(1_000) }
        try recorder.close()
        _ = finished.wait(timeout: .now() + 5)
        stop.store(true, ordering: .relaxed)
        let seen = arrivals.withLock { $0 }
        return committed.sorted { $0.key < $1.key }.map { step, time in
            (seen[step].map { $0.timeIntervalSince(time) } ?? .infinity) * 1000
        }
    }

    /// Records `transactions` increments into a journal bounded to `limit` bytes; the largest
    /// size on disk seen (sampled every 20,000 transactions and at the end), and the time.
    static func bounded(directory: URL, transactions: Int, limit: Int) throws -> (largest: Int, final: Int, seconds: Double) {
        let path = directory.appendingPathComponent("bounded").path
        var largest = 0
        func onDisk() -> Int {
            ((try? SegmentDirectory.segments(in: path)) ?? []).reduce(0) { total, segment in
                total + ((try? FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int) ?? 0)
            }
        }
        let start = Date()
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, limit: limit, program: "atoms-bench")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(BenchTotalAtom())
        var state: UInt64 = 0xB0B
        for index in 0..<transactions {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            context[BenchCounterAtom(id: Int(state >> 33) % 8)] += 1
            if index % 20_000 == 0 {
                // Let the recorder catch up now and then, as an app's idle moments do.
                if index % 200_000 == 0 { try recorder.flush() }
                largest = max(largest, onDisk())
            }
        }
        try recorder.close()
        let final = onDisk()
        return (max(largest, final), final, Date().timeIntervalSince(start))
    }
}
