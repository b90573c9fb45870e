import Atoms
import AtomsJournal
import AtomsTesting
import Foundation

/// The todo count the list shows: a third checked atom, derived from the filtered list.
struct BenchVisibleCountAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        context.watch(BenchFilteredTodosAtom()).count
    }
}

/// The replay of the 500-todo session: `JournalReplay` driving the list and
/// the next id and checking the filtered list, the counts and the visible count, against the
/// same writes made on an `AtomTestContext` without a replay.
@MainActor
enum ReplaySuite {
    struct Figures {
        var transactions = 0
        /// Seconds for the writes alone, per run.
        var writes: [Double] = []
        /// Seconds for the replay (the journal opened and read, the writes and the checks), per run.
        var replays: [Double] = []
    }

    static func run(repetitions: Int, directory: URL) throws -> Figures {
        let path = directory.appendingPathComponent("replay-session.jsonl").path
        try recordSession(path: path)
        var figures = Figures()
        figures.transactions = try JournalReader(path: path).transactionCount
        for _ in 0..<repetitions {
            figures.writes.append(InspectorSuite.seconds { play(on: AtomTestContext()) })
            figures.replays.append(try InspectorSuite.seconds {
                let replay = try JournalReplay(journal: path)
                replay.drive(BenchTodosAtom())
                replay.drive(BenchNextTodoIDAtom())
                replay.check(BenchFilteredTodosAtom())
                replay.check(BenchTodoStatsAtom())
                replay.check(BenchVisibleCountAtom())
                try replay.run(in: AtomTestContext())
            })
        }
        return figures
    }

    /// Records the session as an app does: a view context's writes, the real recorder.
    private static func recordSession(path: String) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "atoms-bench")
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Bench/TodoList.swift", line: 40)
        play(on: list)
        try recorder.close()
        withExtendedLifetime(list) {}
    }

    /// The session: the atoms watched, 500 todos added (each taking the next id: 1,000
    /// transactions), then 3,000 toggles of one flag at random.
    private static func play(on context: some AtomWatchableContext) {
        context.watch(BenchTodosAtom())
        context.watch(BenchNextTodoIDAtom())
        context.watch(BenchFilteredTodosAtom())
        context.watch(BenchTodoStatsAtom())
        context.watch(BenchVisibleCountAtom())
        for _ in 0..<LargeStateSuite.todos {
            let id = context.read(BenchNextTodoIDAtom())
            context[BenchNextTodoIDAtom()] += 1
            context[BenchTodosAtom()].append(BenchTodo(id: id, text: "Todo number \(id), written as users write them", isCompleted: false))
        }
        var state: UInt64 = 0x5E55
        for _ in 0..<3_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            context[BenchTodosAtom()][Int(state >> 33) % LargeStateSuite.todos].isCompleted.toggle()
        }
    }
}
