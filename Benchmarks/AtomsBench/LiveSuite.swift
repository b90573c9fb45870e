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

    /// The bytes of a bounded journal's segments.
    static func bytesOnDisk(_ folder: String) -> Int {
        ((try? SegmentDirectory.segments(in: folder)) ?? []).reduce(0) { total, segment in
            total + ((try? FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int) ?? 0)
        }
    }

    /// Records `transactions` increments into a journal bounded to `limit` bytes; the largest
    /// size on disk seen (sampled every 20,000 transactions and at the end), and the time.
    static func bounded(directory: URL, transactions: Int, limit: Int) throws -> (largest: Int, final: Int, seconds: Double) {
        let path = directory.appendingPathComponent("bounded").path
        var largest = 0
        func onDisk() -> Int { bytesOnDisk(path) }
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

    /// The todo workload at realistic size in a bounded journal: 500 todos, then `toggles`
    /// toggles of one flag (each changes the list, the filtered list and the counts), recorded
    /// unbounded and bounded to `limit` in the same run. Each new segment starts with a
    /// keyframe of the whole 500-todo state.
    struct LargeBounded {
        var unboundedSeconds = 0.0
        var boundedSeconds = 0.0
        var unboundedBytes = 0
        /// The largest size on disk seen (sampled every 1,000 toggles and at the end).
        var largestBytes = 0
        var segments = 0
        var keyframeBytes = 0
        /// Open + `state(at: last)` on the bounded folder, and `wc -l` on its segments (less a
        /// process start), in seconds.
        var openLastSeconds = 0.0
        var wcSeconds = 0.0
    }

    static func largeBounded(directory: URL, toggles: Int, limit: Int) throws -> LargeBounded {
        var figures = LargeBounded()
        let whole = directory.appendingPathComponent("todos.jsonl").path
        let bounded = directory.appendingPathComponent("todos-bounded").path
        func onDisk() -> Int { bytesOnDisk(bounded) }
        for (path, limit) in [(whole, nil), (bounded, limit)] as [(String, Int?)] {
            let start = Date()
            let root = AtomRoot()
            let recorder = try JournalRecorder(path: path, limit: limit, program: "atoms-bench")
            recorder.attach(to: root.store)
            let list = root.viewContext()
            list.watch(BenchFilteredTodosAtom())
            list.watch(BenchTodoStatsAtom())
            for id in 1...LargeStateSuite.todos {
                list[BenchTodosAtom()].append(BenchTodo(id: id, text: "Todo number \(id), written as users write them", isCompleted: false))
            }
            var state: UInt64 = 0x70D0
            for index in 0..<toggles {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                list[BenchTodosAtom()][Int(state >> 33) % LargeStateSuite.todos].isCompleted.toggle()
                if limit != nil, index % 1_000 == 0 {
                    figures.largestBytes = max(figures.largestBytes, onDisk())
                }
            }
            try recorder.close()
            let seconds = Date().timeIntervalSince(start)
            if limit == nil {
                figures.unboundedSeconds = seconds
                figures.unboundedBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            } else {
                figures.boundedSeconds = seconds
            }
        }
        figures.largestBytes = max(figures.largestBytes, onDisk())
        let segments = try SegmentDirectory.segments(in: bounded)
        figures.segments = segments.count
        figures.keyframeBytes = try String(contentsOfFile: segments.last!.path, encoding: .utf8)
            .split(separator: "\n", maxSplits: 2).dropFirst().first.map { $0.utf8.count } ?? 0
        figures.openLastSeconds = InspectorSuite.median(try (0..<5).map { _ in
            try InspectorSuite.seconds {
                let reader = try JournalReader(path: bounded)
                _ = try reader.state(at: reader.lastStep)
            }
        })
        let start = InspectorSuite.median((0..<5).map { _ in InspectorSuite.seconds { _ = try? InspectorSuite.shell("/bin/true", []) } })
        let wc = InspectorSuite.median((0..<5).map { _ in
            InspectorSuite.seconds { _ = try? InspectorSuite.shell("/usr/bin/wc", ["-l"] + segments.map(\.path)) }
        })
        figures.wcSeconds = max(wc - start, 0.0001)
        return figures
    }
}
