import Atoms
import SampleSupport
import SampleTodo
// sample-todo: commands on stdin, one per line:
//   add TEXT, toggle ID, remove ID, filter all|completed|uncompleted, state.

@MainActor
func runTodo() async {
    let session = SampleSession(name: "sample-todo")
    // Two subscribers, as two views would be: the list and the filter picker.
    let list = session.root.viewContext()
    let picker = session.root.viewContext()
    list.watch(FilteredTodosAtom())
    list.watch(StatsAtom())
    picker.watch(FilterAtom())
    list.watch(NextTodoIDAtom())

    await session.runAsync(
        showingState: true, state: {
            [
                "TodosAtom": list.read(TodosAtom()),
                "FilterAtom": list.read(FilterAtom()),
                "FilteredTodosAtom": list.read(FilteredTodosAtom()),
                "StatsAtom": list.read(StatsAtom()),
            ]
        }
    ) { command, argument in
        switch command {
        case "add":
            guard !argument.isEmpty else { throw SampleError("add needs a text: add Buy milk") }
            let id = list.read(NextTodoIDAtom())
            list[NextTodoIDAtom()] += 1
            list[TodosAtom()].append(Todo(id: id, text: argument, isCompleted: false))
        case "toggle":
            let index = try todoIndex(argument, in: list.read(TodosAtom()))
            list[TodosAtom()][index].isCompleted.toggle()
        case "remove":
            let index = try todoIndex(argument, in: list.read(TodosAtom()))
            list[TodosAtom()].remove(at: index)
        case "filter":
            guard let filter = Filter(rawValue: argument) else {
                throw SampleError("filter takes all, completed or uncompleted")
            }
            picker[FilterAtom()] = filter
        default:
            return false
        }
        return true
    }
}

/// The index of the todo with id `text`, or an error naming it.
func todoIndex(_ text: String, in todos: [Todo]) throws -> Int {
    guard let id = Int(text), let index = todos.firstIndex(where: { $0.id == id }) else {
        throw SampleError("no todo with id '\(text)' (ids: \(todos.map(\.id).map(String.init).joined(separator: ", ")))")
    }
    return index
}

await runTodo()
