import Atoms
import AtomsJournalMacros

/// A todo item; ids are handed out in order so scripted sessions are reproducible. Recorded
/// through its own code (`@JournalRecordable`): the list of todos changes on every command.
@JournalRecordable
public struct Todo: Codable, Hashable, Sendable {
    /// Its id.
    public var id: Int
    /// What to do.
    public var text: String
    /// Whether it is done.
    public var isCompleted: Bool

    /// A todo with that id and text.
    public init(id: Int, text: String, isCompleted: Bool) {
        self.id = id
        self.text = text
        self.isCompleted = isCompleted
    }
}

/// Which todos the list shows.
public enum Filter: String, CaseIterable, Codable, Hashable, Sendable {
    case all, completed, uncompleted
}

/// Counts shown under the list.
@JournalRecordable
public struct Stats: Codable, Equatable, Sendable {
    /// How many todos.
    public var total: Int
    /// How many are completed.
    public var totalCompleted: Int
    /// How many are not.
    public var totalUncompleted: Int
    /// The completed share, from 0 to 1.
    public var percentCompleted: Double
}

/// Every todo, in the order they were added.
public struct TodosAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> [Todo] {
        []
    }
}

/// The filter the picker shows.
public struct FilterAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> Filter {
        .all
    }
}

/// The next id to hand out; ids are never reused, even after a removal.
public struct NextTodoIDAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> Int {
        1
    }
}

/// The todos the list shows: those the filter lets through.
public struct FilteredTodosAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> [Todo] {
        let filter = context.watch(FilterAtom())
        let todos = context.watch(TodosAtom())

        switch filter {
        case .all: return todos
        case .completed: return todos.filter(\.isCompleted)
        case .uncompleted: return todos.filter { !$0.isCompleted }
        }
    }
}

/// The counts under the list, derived from every todo.
public struct StatsAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> Stats {
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
