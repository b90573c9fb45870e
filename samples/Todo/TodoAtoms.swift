import Atoms
import AtomsJournalMacros

/// A todo item; ids are handed out in order so scripted sessions are reproducible. Recorded
/// through its own code (`@JournalRecordable`): the list of todos changes on every command.
@JournalRecordable
struct Todo: Codable, Hashable, Sendable {
    var id: Int
    var text: String
    var isCompleted: Bool
}

/// Which todos the list shows.
enum Filter: String, CaseIterable, Codable, Hashable, Sendable {
    case all, completed, uncompleted
}

/// Counts shown under the list.
@JournalRecordable
struct Stats: Codable, Equatable, Sendable {
    var total: Int
    var totalCompleted: Int
    var totalUncompleted: Int
    var percentCompleted: Double
}

struct TodosAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [Todo] {
        []
    }
}

struct FilterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Filter {
        .all
    }
}

/// The next id to hand out; ids are never reused, even after a removal.
struct NextTodoIDAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int {
        1
    }
}

struct FilteredTodosAtom: ValueAtom, Hashable {
    func value(context: Context) -> [Todo] {
        let filter = context.watch(FilterAtom())
        let todos = context.watch(TodosAtom())

        switch filter {
        case .all: return todos
        case .completed: return todos.filter(\.isCompleted)
        case .uncompleted: return todos.filter { !$0.isCompleted }
        }
    }
}

struct StatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> Stats {
        let todos = context.watch(TodosAtom())
        let total = todos.count
        let totalCompleted = todos.filter(\.isCompleted).count
        return Stats(
            total: total,
            totalCompleted: totalCompleted,
            totalUncompleted: total - totalCompleted,
            percentCompleted: total <= 0 ? 0 : Double(totalCompleted) / Double(total)
        )
    }
}
