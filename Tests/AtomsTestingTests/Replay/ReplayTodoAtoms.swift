import Atoms

/// The todo model of the replay tests: a list, a filter, derived counts, and a family of
/// notes with a derived family of their lengths.
struct ReplayTodo: Codable, Hashable, Sendable {
    var id: Int
    var text: String
    var isCompleted: Bool
}

enum ReplayFilter: String, Codable, Hashable, Sendable {
    case all, completed, uncompleted
}

struct ReplayStats: Codable, Equatable, Sendable {
    var total: Int
    var totalCompleted: Int
    var percentCompleted: Double
}

struct TodosAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [ReplayTodo] { [] }
}

struct FilterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> ReplayFilter { .all }
}

struct FilteredTodosAtom: ValueAtom, Hashable {
    func value(context: Context) -> [ReplayTodo] {
        let todos = context.watch(TodosAtom())
        switch context.watch(FilterAtom()) {
        case .all: return todos
        case .completed: return todos.filter(\.isCompleted)
        case .uncompleted: return todos.filter { !$0.isCompleted }
        }
    }
}

/// How completed todos are counted: overridden by the test that plays a regression.
enum CompletedCounting: String, Codable, Sendable {
    case correct
    /// Counts only the first completed todo: the bug a replay must catch.
    case miscounting
}

struct CompletedCountingAtom: ValueAtom, Hashable {
    func value(context: Context) -> CompletedCounting { .correct }
}

struct StatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> ReplayStats {
        let todos = context.watch(TodosAtom())
        let completed = todos.filter(\.isCompleted).count
        let counted = context.watch(CompletedCountingAtom()) == .correct ? completed : min(completed, 1)
        return ReplayStats(total: todos.count, totalCompleted: counted, percentCompleted: todos.isEmpty ? 0 : Double(counted) / Double(todos.count))
    }
}

/// A note per todo: a family keyed by the todo's id.
struct NoteAtom: StateAtom, Hashable {
    let id: Int
    var key: Int { id }
    func defaultValue(context: Context) -> String { "" }
}

struct NoteLengthAtom: ValueAtom, Hashable {
    let id: Int
    var key: Int { id }
    func value(context: Context) -> Int { context.watch(NoteAtom(id: id)).count }
}
