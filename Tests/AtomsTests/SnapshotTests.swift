import Testing
@testable import Atoms
import AtomsDOT

struct QuotedNameAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

@MainActor
struct SnapshotTests {
    @Test func emptyGraph() {
        #expect(AtomTestContext().snapshot().graphDescription() == "digraph {}")
    }

    @Test func graphDescriptionOfAKnownGraphIsExact() {
        let context = AtomTestContext(fileID: "App/TodoList.swift", line: 5)
        context.watch(FilteredTodosAtom())
        let expected = """
            digraph {
              node [shape=box]
              "App/TodoList.swift" [style=filled]
              "FilterAtom"
              "FilterAtom" -> "FilteredTodosAtom"
              "FilteredTodosAtom"
              "FilteredTodosAtom" -> "App/TodoList.swift" [label="line:5"]
              "TodosAtom"
              "TodosAtom" -> "FilteredTodosAtom"
            }
            """
        #expect(context.snapshot().graphDescription() == expected)
    }

    @Test func testContextLocationIsItsInit() {
        let context = AtomTestContext()
        let line = #line - 1
        context.watch(SourceAtom())
        let graph = context.snapshot().graphDescription()
        #expect(graph.contains("\"SourceAtom\" -> \"AtomsTests/SnapshotTests.swift\" [label=\"line:\(line)\"]"))
        #expect(graph.contains("\"AtomsTests/SnapshotTests.swift\" [style=filled]"))
    }

    @Test func namesAreDOTEscaped() {
        #expect(DOT.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(DOT.digraph(statements: ["\"b\"", "\"a\"", "\"b\""]) == "digraph {\n  node [shape=box]\n  \"a\"\n  \"b\"\n}")
    }

    @Test func lookupReturnsCapturedValues() {
        let context = AtomTestContext()
        context.watch(SumAtom())
        context.watch(SourceAtom())
        context[SourceAtom()] = 2
        let snapshot = context.snapshot()
        context[SourceAtom()] = 5
        #expect(snapshot.lookup(SumAtom()) == 23)
        #expect(snapshot.lookup(SourceAtom()) == 2)
        #expect(snapshot.lookup(ItemAtom()) == nil)
    }

    @Test func restoreBringsBackValuesAndGraphAndNotifiesWatchers() {
        let root = AtomRoot()
        var updates = 0
        let context = root.viewContext { updates += 1 }
        context.watch(SwitchingAtom())
        context.watch(UseRightAtom())
        let before = context.snapshot()
        context[UseRightAtom()] = true
        #expect(context.snapshot().lookup(LeftAtom()) == nil)
        updates = 0

        context.restore(before)
        let after = context.snapshot()
        #expect(after.lookup(UseRightAtom()) == false)
        #expect(after.lookup(SwitchingAtom()) == 1)
        #expect(after.lookup(LeftAtom()) == 1, "released atom re-created from the snapshot")
        #expect(after.lookup(RightAtom()) == nil, "dependency no longer in the graph is released")
        #expect(after.graphDescription() == before.graphDescription())
        #expect(updates == 1)
        #expect(root.store.engine.invariantViolations().isEmpty)

        // The restored graph is live: changing the flag recomputes from the restored edges.
        context[UseRightAtom()] = true
        #expect(context.read(SwitchingAtom()) == 0)
    }

    @Test func observeIsCalledAfterEveryCommittedUpdate() {
        var snapshots: [Snapshot] = []
        let root = AtomRoot().observe { snapshots.append($0) }
        let context = root.viewContext()
        context.watch(SourceAtom())
        context[SourceAtom()] = 1
        context[SourceAtom()] = 2
        _ = context.read(SourceAtom())  // no change: no snapshot
        #expect(snapshots.map { $0.lookup(SourceAtom()) } == [0, 1, 2])
    }

    @Test func descriptionListsAtomsAndValues() {
        let context = AtomTestContext()
        context.watch(LeftAtom())
        #expect(context.snapshot().description == "Snapshot(\n  LeftAtom: 1\n  SourceAtom: 0\n)")
    }
}
