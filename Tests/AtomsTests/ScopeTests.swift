import Testing
@testable import Atoms

struct SearchQueryAtom: StateAtom, Scoped, Hashable {
    func defaultValue(context: Context) -> String { "" }
}

struct SharedCountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

struct TextScopeID: Hashable, Sendable {}

struct PinnedTextAtom: StateAtom, Scoped, Hashable {
    var scopeID: TextScopeID { TextScopeID() }
    func defaultValue(context: Context) -> String { "pinned" }
}

/// A scoped derived atom: its dependencies resolve from the scope it lives in.
struct QueryLengthAtom: ValueAtom, Scoped, Hashable {
    func value(context: Context) -> Int { context.watch(SearchQueryAtom()).count }
}

@MainActor
struct ScopeTests {
    @Test func twoScopesHoldIndependentValuesWhileUnscopedAtomsAreShared() {
        let root = AtomRoot()
        let left = AtomScope(root: root).viewContext()
        let right = AtomScope(root: root).viewContext()
        left.watch(SearchQueryAtom())
        right.watch(SearchQueryAtom())
        left.watch(SharedCountAtom())
        right.watch(SharedCountAtom())

        left[SearchQueryAtom()] = "left"
        right[SharedCountAtom()] = 7
        #expect(left.read(SearchQueryAtom()) == "left")
        #expect(right.read(SearchQueryAtom()) == "")
        #expect(left.read(SharedCountAtom()) == 7)
        #expect(root.store.engine.invariantViolations().isEmpty)
    }

    @Test func scopedAtomsShowTheirScopeInTheGraph() {
        let root = AtomRoot()
        let scope = AtomScope(root: root)
        let context = scope.viewContext(fileID: "App/Search.swift", line: 3)
        context.watch(QueryLengthAtom())
        let key = scope.key
        #expect(context.snapshot().graphDescription() == """
            digraph {
              node [shape=box]
              "App/Search.swift" [style=filled]
              "QueryLengthAtom scope:\(key)"
              "QueryLengthAtom scope:\(key)" -> "App/Search.swift" [label="line:3"]
              "SearchQueryAtom scope:\(key)"
              "SearchQueryAtom scope:\(key)" -> "QueryLengthAtom scope:\(key)"
            }
            """)
    }

    @Test func scopeIDPicksTheMatchingAncestor() {
        let root = AtomRoot()
        let outer = AtomScope(id: TextScopeID(), root: root)
        let inner = AtomScope(parent: outer)
        let outerContext = outer.viewContext()
        let innerContext = inner.viewContext()
        outerContext.watch(PinnedTextAtom())
        innerContext.watch(PinnedTextAtom())
        innerContext[PinnedTextAtom()] = "shared"
        #expect(outerContext.read(PinnedTextAtom()) == "shared")
        #expect(innerContext.snapshot().atoms.map(\.scope) == [outer.key])
    }

    @Test func scopedOverrideAppliesOnlyToThatScope() {
        let root = AtomRoot()
        let scope = AtomScope(root: root).scopedOverride(SharedCountAtom()) { _ in 456 }
        let nested = AtomScope(parent: scope)
        #expect(scope.viewContext().watch(SharedCountAtom()) == 456)
        #expect(nested.viewContext().watch(SharedCountAtom()) == 0)
        #expect(root.viewContext().watch(SharedCountAtom()) == 0)
    }

    @Test func scopedTypeOverride() {
        let root = AtomRoot()
        let scope = AtomScope(root: root).scopedOverride(UserNameAtom.self) { "scoped\($0.userID)" }
        #expect(scope.viewContext().watch(UserNameAtom(userID: 4)) == "scoped4")
        #expect(root.viewContext().watch(UserNameAtom(userID: 4)) == "Robert")
    }

    @Test func inheritingScopeSharesTheParentContext() {
        let root = AtomRoot()
        let scope = AtomScope(root: root).scopedOverride(SharedCountAtom()) { _ in 9 }
        let parentContext = scope.viewContext()
        let inherited = AtomScope(inheriting: parentContext).viewContext()
        parentContext.watch(SearchQueryAtom())
        parentContext[SearchQueryAtom()] = "same"
        #expect(inherited.watch(SharedCountAtom()) == 9)
        #expect(inherited.watch(SearchQueryAtom()) == "same")
    }

    @Test func scopedObserveSeesUpdatesOfItsAtoms() {
        let root = AtomRoot()
        var seen: [String?] = []
        let scope = AtomScope(root: root).scopedObserve { seen.append($0.lookup(SearchQueryAtom())) }
        let other = AtomScope(root: root)
        let context = scope.viewContext()
        context.watch(SearchQueryAtom())
        context[SearchQueryAtom()] = "a"
        other.viewContext().watch(SearchQueryAtom())
        #expect(seen == ["", "a"])
    }
}
