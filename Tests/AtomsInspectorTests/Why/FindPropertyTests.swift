import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `find --all` on random journals equals evaluating the expression, independently, on what
/// `show --json` prints at every step. Only the recording runs on the main actor: the reading,
/// most of the work, leaves it to the tests that need it.
struct FindPropertyTests {
    /// Records a random session: tasks appended, toggled and removed, the filter flipped,
    /// drafts edited, and a draft editor opened and closed (its atom created and released).
    @MainActor
    private func randomJournal(seed: UInt64, in directory: TemporaryDirectory) throws -> InspectedJournal {
        var random = SeededGenerator(seed: seed)
        let path = directory.path("random-\(seed).jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 1 + random.next(8), program: "tests")
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Random/List.swift", line: 1)
        list.watch(TaskCountAtom())
        list.watch(ShowDoneTasksAtom())
        list.watch(DraftAtom(slot: 1))
        var editor: AtomViewContext? = root.viewContext(fileID: "Random/Editor.swift", line: 2)
        editor!.watch(DraftAtom(slot: 2))
        let titles = ["a", "b", "milk", "tests"]
        for _ in 0..<(60 + random.next(60)) {
            let tasks = list.read(TasksAtom())
            switch random.next(7) {
            case 0, 1:
                list[TasksAtom()].append(TaskItem(id: random.next(5), title: titles[random.next(titles.count)], done: random.next(2) == 0))
            case 2 where !tasks.isEmpty:
                list[TasksAtom()][random.next(tasks.count)].done.toggle()
            case 3 where !tasks.isEmpty:
                list[TasksAtom()].remove(at: random.next(tasks.count))
            case 4:
                list[ShowDoneTasksAtom()] = random.next(2) == 0
            case 5:
                list[DraftAtom(slot: 1)] = titles[random.next(titles.count)]
            default:
                if let open = editor, random.next(2) == 0 {
                    open[DraftAtom(slot: 2)] = titles[random.next(titles.count)]
                } else if editor != nil {
                    editor = nil  // DraftAtom[2] is released
                } else {
                    editor = root.viewContext(fileID: "Random/Editor.swift", line: 2)
                    editor!.watch(DraftAtom(slot: 2))
                }
            }
        }
        try recorder.close()
        withExtendedLifetime((list, editor)) {}
        return try InspectedJournal(path: path)
    }

    /// A random expression over the session's atoms, and the atom (display name) each of its
    /// paths reads, for the reference evaluator.
    private func randomExpression(_ random: inout SeededGenerator, depth: Int = 0) -> WhereExpression {
        if depth < 2, random.next(3) == 0 {
            let lhs = randomExpression(&random, depth: depth + 1)
            let rhs = randomExpression(&random, depth: depth + 1)
            switch random.next(3) {
            case 0: return .and(lhs, rhs)
            case 1: return .or(lhs, rhs)
            default: return .not(lhs)
            }
        }
        let paths: [ValuePath] = [
            ValuePath(atom: "TasksAtom", components: [.member("count")]),
            ValuePath(atom: "TasksAtom", components: [.index(0), .member("done")]),
            ValuePath(atom: "TasksAtom", components: [.index(-1), .member("title")]),
            ValuePath(atom: "TasksAtom", components: [.index(1), .member("id")]),
            ValuePath(atom: "TaskCountAtom"),
            ValuePath(atom: "VisibleTasksAtom", components: [.member("count")]),
            ValuePath(atom: "ShowDoneTasksAtom"),
            ValuePath(atom: "DraftAtom[1]", quoted: true),
            ValuePath(atom: "DraftAtom", components: [.index(2)]),
            ValuePath(atom: "DraftAtom[2]", quoted: true, components: [.member("count")]),
        ]
        let literals: [JSONValue] = [.number(0), .number(1), .number(2), .number(3), .string("milk"), .string("a"), .bool(true), .bool(false), .null]
        let lhs = WhereExpression.path(paths[random.next(paths.count)])
        let rhs: WhereExpression = random.next(4) == 0 ? .path(paths[random.next(paths.count)]) : .literal(literals[random.next(literals.count)])
        guard random.next(6) > 0 else { return lhs }
        return .compare(WhereExpression.Comparison.allCases[random.next(6)], lhs, rhs)
    }

    @Test(arguments: 0..<12)
    func findAllEqualsEvaluatingShowAtEveryStep(seed: Int) async throws {
        let directory = try TemporaryDirectory()
        let journal = try await randomJournal(seed: UInt64(seed), in: directory)
        let reader = journal.reader
        // What `show --json` prints at every step, by atom name.
        var shown: [Int: [String: JSONValue]] = [:]
        for step in reader.firstStep...reader.lastStep {
            let output = try ShowCommand.run(journal, at: .number(step), json: true)
            let state = try JSONDecoder().decode(ShownState.self, from: Data(output.utf8))
            shown[step] = Dictionary(uniqueKeysWithValues: state.atoms.compactMap { atom in atom.value.map { (atom.atom, $0) } })
        }
        var random = SeededGenerator(seed: UInt64(seed) &* 7919)
        for _ in 0..<25 {
            let expression = randomExpression(&random)
            // Through the text, as a user gives it.
            let text = expression.description
            let expected = (reader.firstStep...reader.lastStep).filter { Reference.evaluate(expression, shown[$0]!) == .bool(true) }
            let all = try FindCommand.find(journal, where: text, mode: .all).steps.map(\.step)
            #expect(all == expected, "seed \(seed): \(text)")
            let becomes = try FindCommand.find(journal, where: text).steps.map(\.step)
            #expect(becomes == expected.filter { $0 == reader.firstStep || !expected.contains($0 - 1) }, "seed \(seed): \(text)")
            let first = try FindCommand.find(journal, where: text, mode: .first).steps.map(\.step)
            #expect(first == Array(becomes.prefix(1)), "seed \(seed): \(text)")
        }
    }
}

/// An evaluator written apart from the inspector's, over values keyed by display name.
private enum Reference {
    static func evaluate(_ expression: WhereExpression, _ values: [String: JSONValue]) -> JSONValue {
        switch expression {
        case .literal(let value):
            return value
        case .path(let path):
            var components = path.components
            var atom = path.atom
            // The generator writes `DraftAtom[2]` unquoted for the family member.
            if !path.quoted, atom == "DraftAtom", case .index(let key)? = components.first {
                atom = "DraftAtom[\(key)]"
                components.removeFirst()
            }
            var value = values[atom] ?? .null
            for component in components {
                switch (component, value) {
                case (.member("count"), .array(let elements)): value = .number(JSONNumber(elements.count))
                case (.member("count"), .string(let text)): value = .number(JSONNumber(text.count))
                case (.member(let name), .object(let members)): value = members[name] ?? .null
                case (.index(let index), .array(let elements)):
                    let position = index < 0 ? elements.count + index : index
                    value = position >= 0 && position < elements.count ? elements[position] : .null
                default: value = .null
                }
            }
            return value
        case .not(let operand):
            return .bool(evaluate(operand, values) != .bool(true))
        case .and(let lhs, let rhs):
            return .bool(evaluate(lhs, values) == .bool(true) && evaluate(rhs, values) == .bool(true))
        case .or(let lhs, let rhs):
            return .bool(evaluate(lhs, values) == .bool(true) || evaluate(rhs, values) == .bool(true))
        case .compare(let comparison, let lhs, let rhs):
            let a = evaluate(lhs, values)
            let b = evaluate(rhs, values)
            var order: Double?
            if case .number(let x) = a, case .number(let y) = b { order = x.double - y.double }
            if case .string(let x) = a, case .string(let y) = b { order = x == y ? 0 : (x < y ? -1 : 1) }
            switch comparison {
            case .equal: return .bool(a == b)
            case .notEqual: return .bool(a != b)
            case .less: return .bool(order.map { $0 < 0 } ?? false)
            case .lessOrEqual: return .bool(order.map { $0 <= 0 } ?? false)
            case .greater: return .bool(order.map { $0 > 0 } ?? false)
            case .greaterOrEqual: return .bool(order.map { $0 >= 0 } ?? false)
            }
        }
    }
}
