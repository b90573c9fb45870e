import Testing
import Atoms

@MainActor
struct TestContextTests {
    @Test func onUpdateIsCalledForWatchedAtomsOnly() {
        let context = AtomTestContext()
        var updates = 0
        context.onUpdate = { updates += 1 }
        context.watch(SourceAtom())
        _ = context.read(ItemAtom())
        context[SourceAtom()] = 1
        #expect(updates == 1)
    }

    @Test func waitForUpdateReturnsTrueWhenAnUpdateArrives() async {
        let context = AtomTestContext()
        context.watch(SourceAtom())
        Task { context[SourceAtom()] = 1 }
        // No wall-clock limit on the success path: other main-actor tests may hold the actor.
        #expect(await context.waitForUpdate())
        #expect(context.read(SourceAtom()) == 1)
    }

    @Test func waitForUpdateTimesOut() async {
        let context = AtomTestContext()
        context.watch(SourceAtom())
        #expect(await context.waitForUpdate(timeout: 0.05) == false)
    }

    @Test func waitForUpdateWithinThrowsOnTimeout() async {
        let context = AtomTestContext()
        context.watch(SourceAtom())
        await #expect(throws: AtomTestContextTimeoutError(timeout: 0.05)) {
            try await context.waitForUpdate(within: 0.05)
        }
    }

    @Test func waitForAtomUntilPredicate() async throws {
        let context = AtomTestContext()
        context.watch(SourceAtom())
        Task {
            for value in 1...3 {
                context[SourceAtom()] = value
                await Task.yield()
            }
        }
        #expect(await context.wait(for: SourceAtom()) { $0 == 3 })
        #expect(await context.wait(for: SourceAtom()) { $0 == 3 } == false, "already satisfied")
        try await context.wait(for: SourceAtom(), within: 0.01) { $0 == 3 }  // satisfied: returns at once
        await #expect(throws: AtomTestContextTimeoutError.self) {
            try await context.wait(for: SourceAtom(), within: 0.05) { $0 == 4 }
        }
    }
}
