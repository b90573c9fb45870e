import Foundation
import Testing
import Atoms

/// Code written for upstream Atoms (the README's tutorial and testing guide) compiles unchanged
/// and behaves as upstream documents.
@MainActor
struct CompatibilityTests {
    @Test func filteredTodosFollowFilterAndTodos() {
        let context = AtomTestContext()
        let done = Todo(id: UUID(), text: "Done", isCompleted: true)
        let open = Todo(id: UUID(), text: "Open", isCompleted: false)

        #expect(context.watch(FilteredTodosAtom()).isEmpty)

        context[TodosAtom()] = [done, open]
        #expect(context.watch(FilteredTodosAtom()) == [done, open])

        context[FilterAtom()] = .completed
        #expect(context.watch(FilteredTodosAtom()) == [done])

        context[FilterAtom()] = .uncompleted
        #expect(context.watch(FilteredTodosAtom()) == [open])

        context[TodosAtom()][1].isCompleted = true
        #expect(context.watch(FilteredTodosAtom()).isEmpty)
    }

    @Test func settingFilterBeforeWatchingIsIgnoredAsUpstream() {
        let context = AtomTestContext()
        let done = Todo(id: UUID(), text: "Done", isCompleted: true)

        // Nothing watches FilterAtom yet, so this write is ignored (upstream semantics).
        context[FilterAtom()] = .completed
        context.watch(FilterAtom())
        context[FilterAtom()] = .completed
        context[TodosAtom()] = [done]  // TodosAtom is not cached yet either: ignored.

        #expect(context.watch(FilteredTodosAtom()).isEmpty)
        context[TodosAtom()] = [done]
        #expect(context.watch(FilteredTodosAtom()) == [done])
    }

    @Test func atomFamilyByExplicitKey() {
        let context = AtomTestContext()
        #expect(context.watch(UserNameAtom(userID: 1)) == "Robert")
        context[UserNameAtom(userID: 1)] = "Alice"
        #expect(context.watch(UserNameAtom(userID: 1)) == "Alice")
        #expect(context.watch(UserNameAtom(userID: 2)) == "Robert")
    }

    @Test func contextsWorkAsExistentialAtomContext() {
        let context = AtomTestContext()
        context.watch(FilterAtom())
        let plain: AtomContext = context
        plain[FilterAtom()] = .completed
        #expect(plain.read(FilterAtom()) == .completed)
    }
}
