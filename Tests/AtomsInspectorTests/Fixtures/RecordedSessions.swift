import Atoms
import AtomsJournal
import Foundation
import TestSupport

struct TaskItem: Codable, Hashable, Sendable {
    var id: Int
    var title: String
    var done: Bool
}

struct TasksAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [TaskItem] { [] }
}

struct ShowDoneTasksAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Bool { true }
}

struct VisibleTasksAtom: ValueAtom, Hashable {
    func value(context: Context) -> [TaskItem] {
        let tasks = context.watch(TasksAtom())
        return context.watch(ShowDoneTasksAtom()) ? tasks : tasks.filter { !$0.done }
    }
}

struct TaskCountAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(VisibleTasksAtom()).count }
}

struct DraftAtom: StateAtom {
    let slot: Int
    var key: Int { slot }
    func defaultValue(context: Context) -> String { "" }
}

/// Records known sessions into journal files with the project's own recorder.
@MainActor
enum RecordedSessions {
    /// A small, fully known session (8 transactions): used for exact outputs.
    static func small(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("small.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4, program: "tests")
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Tasks/List.swift", line: 12)
        list.watch(TaskCountAtom(), fileID: "Tasks/List.swift", line: 12)       // 1
        list.watch(TasksAtom(), fileID: "Tasks/List.swift", line: 12)           // 2
        list.watch(ShowDoneTasksAtom(), fileID: "Tasks/List.swift", line: 12)   // 3
        list[TasksAtom()] = [TaskItem(id: 1, title: "Write", done: false)]      // 4
        list[TasksAtom()].append(TaskItem(id: 2, title: "Test", done: true))    // 5
        list[ShowDoneTasksAtom()] = false                                       // 6
        let editor = root.viewContext(fileID: "Tasks/Editor.swift", line: 30)
        editor.watch(DraftAtom(slot: 1), fileID: "Tasks/Editor.swift", line: 30)  // 7
        editor.watch(DraftAtom(slot: 2), fileID: "Tasks/Editor.swift", line: 30)  // 8
        editor[DraftAtom(slot: 2)] = "draft"                                    // 9
        try recorder.close()
        withExtendedLifetime((list, editor)) {}
        return path
    }

    /// A longer session of `operations` steps, with timing lines when `timing`.
    static func long(in directory: TemporaryDirectory, operations: Int, timing: Bool = false) throws -> String {
        let path = directory.path("long.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 32)
        recorder.recordsTiming = timing
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Tasks/List.swift", line: 12)
        list.watch(TaskCountAtom(), fileID: "Tasks/List.swift", line: 12)
        list.watch(TasksAtom(), fileID: "Tasks/List.swift", line: 12)
        list.watch(ShowDoneTasksAtom(), fileID: "Tasks/List.swift", line: 12)
        for step in 0..<operations {
            switch step % 4 {
            case 0: list[TasksAtom()].append(TaskItem(id: step, title: "task \(step)", done: false))
            case 1: list[TasksAtom()][list.read(TasksAtom()).count - 1].done = true
            case 2: list[ShowDoneTasksAtom()].toggle()
            default: list[TasksAtom()].removeFirst()
            }
        }
        try recorder.close()
        withExtendedLifetime(list) {}
        return path
    }
}
