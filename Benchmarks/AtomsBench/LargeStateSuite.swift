import Atoms
import AtomsInspector
import AtomsJournal
import AtomsJournalMacros
import Foundation

/// A todo item, as `sample-todo` holds them.
struct BenchTodo: Codable, Hashable {
    var id: Int
    var text: String
    var isCompleted: Bool
}

struct BenchTodosAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [BenchTodo] { [] }
}

struct BenchNextTodoIDAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 1 }
}

struct BenchFilteredTodosAtom: ValueAtom, Hashable {
    func value(context: Context) -> [BenchTodo] {
        context.watch(BenchTodosAtom())
    }
}

/// Counts derived from the whole list, as the todo sample's StatsAtom.
struct BenchTodoStats: Codable, Equatable {
    var total: Int
    var totalCompleted: Int
    var percentCompleted: Double
}

struct BenchTodoStatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> BenchTodoStats {
        let todos = context.watch(BenchTodosAtom())
        let completed = todos.filter(\.isCompleted).count
        return BenchTodoStats(total: todos.count, totalCompleted: completed, percentCompleted: todos.isEmpty ? 0 : Double(completed) / Double(todos.count))
    }
}

/// The same todo, recorded through its own code (`@JournalRecordable`).
@JournalRecordable
struct RecordableBenchTodo: Codable, Hashable {
    var id: Int
    var text: String
    var isCompleted: Bool
}

struct RecordableBenchTodosAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [RecordableBenchTodo] { [] }
}

struct RecordableBenchFilteredTodosAtom: ValueAtom, Hashable {
    func value(context: Context) -> [RecordableBenchTodo] {
        context.watch(RecordableBenchTodosAtom())
    }
}

/// The counts, recorded through their own code.
@JournalRecordable
struct RecordableBenchTodoStats: Codable, Equatable {
    var total: Int
    var totalCompleted: Int
    var percentCompleted: Double
}

struct RecordableBenchTodoStatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> RecordableBenchTodoStats {
        let todos = context.watch(RecordableBenchTodosAtom())
        let completed = todos.filter(\.isCompleted).count
        return RecordableBenchTodoStats(total: todos.count, totalCompleted: completed, percentCompleted: todos.isEmpty ? 0 : Double(completed) / Double(todos.count))
    }
}

/// The atoms and values of one version of the todo session: `Codable` values as a user first
/// writes them, or the same values with `@JournalRecordable`.
@MainActor
protocol BenchTodoModel {
    associatedtype Todo: Codable & Hashable
    associatedtype TodosAtom: StateAtom where TodosAtom.Value == [Todo]
    associatedtype FilteredAtom: ValueAtom
    associatedtype StatsAtom: ValueAtom
    static var todos: TodosAtom { get }
    static var filtered: FilteredAtom { get }
    static var stats: StatsAtom { get }
    static func todo(id: Int) -> Todo
    static func toggle(_ todo: inout Todo)
}

/// The session's values recorded through `Codable`.
enum CodableTodos: BenchTodoModel {
    static var todos: BenchTodosAtom { BenchTodosAtom() }
    static var filtered: BenchFilteredTodosAtom { BenchFilteredTodosAtom() }
    static var stats: BenchTodoStatsAtom { BenchTodoStatsAtom() }
    static func todo(id: Int) -> BenchTodo { BenchTodo(id: id, text: "Todo number \(id), written as users write them", isCompleted: false) }
    static func toggle(_ todo: inout BenchTodo) { todo.isCompleted.toggle() }
}

/// The session's values recorded through their own code.
enum RecordableTodos: BenchTodoModel {
    static var todos: RecordableBenchTodosAtom { RecordableBenchTodosAtom() }
    static var filtered: RecordableBenchFilteredTodosAtom { RecordableBenchFilteredTodosAtom() }
    static var stats: RecordableBenchTodoStatsAtom { RecordableBenchTodoStatsAtom() }
    static func todo(id: Int) -> RecordableBenchTodo { RecordableBenchTodo(id: id, text: "Todo number \(id), written as users write them", isCompleted: false) }
    static func toggle(_ todo: inout RecordableBenchTodo) { todo.isCompleted.toggle() }
}

/// R2b, R3b and the inspector over a large state: the large todo session, 500 todos
/// added and then 3,000 toggles of one flag, each of which changes three atoms (the list, the
/// filtered list and the counts), with the journal off and on.
@MainActor
enum LargeStateSuite {
    static let todos = 500
    static let toggles = 3_000

    struct Figures {
        var off: [Double] = []
        var on: [Double] = []
        var onAppThread: [Double] = []
        /// The same, with the values `@JournalRecordable`.
        var recordableOff: [Double] = []
        var recordableOn: [Double] = []
        var recordableOnAppThread: [Double] = []
        var recordableFileBytes = 0
        /// The app thread's CPU seconds in the loop, recorded without timing and with it.
        var untimedCPU: [Double] = []
        var timedCPU: [Double] = []
        var timedFileBytes = 0
        var transactions = 0
        var fileBytes = 0
        /// The keyframe lines' bytes in the Codable journal, newlines included, and their count.
        var keyframeBytes = 0
        var keyframes = 0
        var wcSeconds = 0.0
        var logSeconds = 0.0
        var statsSeconds = 0.0
        var showSeconds = 0.0
        var findSeconds = 0.0
    }

    static func run(repetitions: Int, directory: URL) throws -> Figures {
        var figures = Figures()
        let path = directory.appendingPathComponent("todo-large.jsonl").path
        for _ in 0..<repetitions {
            figures.off.append(session(CodableTodos.self, journal: nil).total)
            let recorded = session(CodableTodos.self, journal: path)
            figures.on.append(recorded.total)
            figures.onAppThread.append(recorded.beforeClose)
            figures.untimedCPU.append(recorded.cpu)
            figures.timedCPU.append(session(CodableTodos.self, journal: path + ".timed", timing: true).cpu)
            figures.recordableOff.append(session(RecordableTodos.self, journal: nil).total)
            let recordable = session(RecordableTodos.self, journal: path + ".recordable")
            figures.recordableOn.append(recordable.total)
            figures.recordableOnAppThread.append(recordable.beforeClose)
        }
        figures.recordableFileBytes = (try FileManager.default.attributesOfItem(atPath: path + ".recordable")[.size] as? Int) ?? 0
        figures.fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        figures.timedFileBytes = (try FileManager.default.attributesOfItem(atPath: path + ".timed")[.size] as? Int) ?? 0
        let keyframePrefix = Array(#"{"type":"keyframe""#.utf8)
        for line in try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: 0x0A) where line.starts(with: keyframePrefix) {
            figures.keyframeBytes += line.count + 1
            figures.keyframes += 1
        }
        let journal = try InspectedJournal(path: path)
        figures.transactions = journal.reader.transactionCount
        let measured = try inspect(path: path)
        figures.findSeconds = try findWithoutMatch(path: path)
        figures.wcSeconds = measured.wc
        figures.logSeconds = measured.log
        figures.statsSeconds = measured.stats
        figures.showSeconds = InspectorSuite.median(try (0..<3).map { _ in
            try InspectorSuite.seconds { _ = try ShowCommand.run(try InspectedJournal(path: path), at: .number(figures.transactions / 2)) }
        })
        return figures
    }

    /// `log` and `stats` in full (open included, in this process) on a journal, against
    /// `wc -l` on the same file less the cost of starting a process (`true`): medians of
    /// three runs, in seconds.
    static func inspect(path: String) throws -> (wc: Double, log: Double, stats: Double) {
        let start = InspectorSuite.median((0..<5).map { _ in InspectorSuite.seconds { _ = try? InspectorSuite.shell("/bin/true", []) } })
        let wcWithStart = InspectorSuite.median((0..<5).map { _ in InspectorSuite.seconds { _ = try? InspectorSuite.shell("/usr/bin/wc", ["-l", path]) } })
        let wc = max(wcWithStart - start, 0.0001)
        let log = InspectorSuite.median(try (0..<3).map { _ in
            try InspectorSuite.seconds {
                // As the executable prints it: line by line.
                var bytes = 0
                try LogCommand.write(try InspectedJournal(path: path), options: .init()) { bytes += $0.count }
            }
        })
        let stats = InspectorSuite.median(try (0..<3).map { _ in
            try InspectorSuite.seconds { _ = try StatsCommand.stats(try InspectedJournal(path: path)) }
        })
        return (wc, log, stats)
    }

    /// `find --first` for a condition that never holds (the list never passes 500 todos): a
    /// scan of every step that keeps the 500-todo array current, applying each delta.
    static func findWithoutMatch(path: String) throws -> Double {
        InspectorSuite.median(try (0..<3).map { _ in
            try InspectorSuite.seconds {
                _ = try FindCommand.find(try InspectedJournal(path: path), where: "BenchTodosAtom.count > \(todos)", mode: .first)
            }
        })
    }

    /// One session, off or recorded (untimed), with `toggles` toggles, for counting its
    /// instructions per thread (`valgrind --tool=callgrind --separate-threads=yes atoms-bench
    /// --large-once untimed 3000`): prints the app thread's CPU time per toggle. `recordable`
    /// records the values through `@JournalRecordable`'s code.
    static func runOnce(journal: Bool, toggles: Int, recordable: Bool) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-bench-large-once-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = recordable
            ? session(RecordableTodos.self, journal: journal ? path : nil, toggles: toggles)
            : session(CodableTodos.self, journal: journal ? path : nil, toggles: toggles)
        print("\(journal ? "untimed" : "off"): \(formatted(nanoseconds: result.cpu * 1e9 / Double(todos + toggles))) app-thread CPU per transaction")
    }

    /// Seconds for one session: in all (the journal closed and synced), before closing, and
    /// the app thread's CPU time before closing.
    private static func session<Model: BenchTodoModel>(_ model: Model.Type, journal: String?, timing: Bool = false, toggles: Int = toggles) -> (total: Double, beforeClose: Double, cpu: Double) {
        var beforeClose = 0.0
        var cpu = 0.0
        let total = nanoseconds {
            let root = AtomRoot()
            let recorder = journal.map { try! JournalRecorder(path: $0, program: "atoms-bench") }
            recorder?.recordsTiming = timing
            recorder?.attach(to: root.store)
            let list = root.viewContext()
            list.watch(Model.filtered)
            list.watch(Model.stats)
            list.watch(BenchNextTodoIDAtom())
            beforeClose = nanoseconds { cpu = threadCPUNanoseconds {
                for _ in 0..<todos {
                    let id = list.read(BenchNextTodoIDAtom())
                    list[BenchNextTodoIDAtom()] += 1
                    list[Model.todos].append(Model.todo(id: id))
                }
                var state: UInt64 = 0x5EED
                for _ in 0..<toggles {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    Model.toggle(&list[Model.todos][Int(state >> 33) % todos])
                }
            } }
            try? recorder?.close()
        }
        return (total / 1e9, beforeClose / 1e9, cpu / 1e9)
    }
}
