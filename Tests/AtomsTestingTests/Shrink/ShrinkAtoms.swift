import Atoms

/// A todo of the shrink sessions.
struct ShrinkTodo: Codable, Hashable, Sendable {
    var id: Int
    var text: String
    var isCompleted: Bool
}

struct ShrinkTodosAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [ShrinkTodo] { [] }
}

/// The counts a list shows.
struct ShrinkStats: Codable, Equatable, Sendable {
    var total: Int
    var completed: Int
}

/// The value bug: todos whose text ends with "!" are left out of the total.
struct ShrinkStatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> ShrinkStats {
        let todos = context.watch(ShrinkTodosAtom())
        let counted = todos.filter { !$0.text.hasSuffix("!") }
        return ShrinkStats(total: counted.count, completed: counted.filter(\.isCompleted).count)
    }
}

/// The draft being edited; an effect counts its updates.
struct DraftAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }

    func effect(context: CurrentContext) -> some AtomEffect {
        UpdateEffect {
            context[EditCountAtom()] += 1
        }
    }
}

/// Edits since the draft was saved, counted by the draft's effect. The sequence bug: nothing
/// ever resets it, so it reaches 7.
struct EditCountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Writes that have nothing to do with either bug.
struct NoiseAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}
