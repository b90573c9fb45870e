import Atoms

struct CounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

struct DoubledAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(CounterAtom()) * 2 }
}

struct MarkerAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}

struct Todo: Codable, Hashable, Sendable {
    var id: Int
    var text: String
    var isCompleted: Bool
}

struct Stats: Codable, Equatable, Sendable {
    var total: Int
    var totalCompleted: Int
}

struct TodosAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [Todo] { [] }
}

/// How completed todos are counted: the replay tests override it to play a regression.
enum CompletedCounting: String, Codable, Sendable {
    case correct
    /// Counts at most one completed todo.
    case miscounting
}

struct CompletedCountingAtom: ValueAtom, Hashable {
    func value(context: Context) -> CompletedCounting { .correct }
}

struct StatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> Stats {
        let todos = context.watch(TodosAtom())
        let completed = todos.filter(\.isCompleted).count
        let counted = context.watch(CompletedCountingAtom()) == .correct ? completed : min(completed, 1)
        return Stats(total: todos.count, totalCompleted: counted)
    }
}
