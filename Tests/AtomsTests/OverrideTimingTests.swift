import Foundation
import Testing
import Atoms
import TestSupport

/// A task whose value is a number, overridden by the tests below.
struct NumberTaskAtom: TaskAtom, Hashable {
    func value(context: Context) async -> Int {
        1
    }
}

/// A value that doubles the state `MultiplierAtom`, so that changing the state recomputes it.
struct DoubledMultiplierAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        context.watch(MultiplierAtom()) * 2
    }
}

/// An object atom for the override tests (the override gives its own object).
struct ObservedContactAtom: ObservableObjectAtom, Hashable {
    func object(context: Context) -> Contact {
        Contact()
    }
}

/// Upstream looks overrides up each time an atom produces a value and manages an overridden
/// value as the atom's kind manages a produced one; these tests pin both, written as upstream
/// tests atoms.
@MainActor
struct OverrideTimingTests {
    @Test func anOverrideSetAfterTheFirstWatchAppliesAtTheNextRefresh() async {
        let context = AtomTestContext()
        #expect(await context.watch(NumberTaskAtom()).value == 1)

        context.override(NumberTaskAtom()) { _ in Task { 2 } }
        #expect(await context.watch(NumberTaskAtom()).value == 1, "the cached value stays until it is produced again")
        #expect(await context.refresh(NumberTaskAtom()).value == 2)
        #expect(await context.watch(NumberTaskAtom()).value == 2)
    }

    @Test func anOverrideSetAfterTheFirstWatchAppliesAtTheNextRecomputation() {
        let context = AtomTestContext()
        #expect(context.watch(DoubledMultiplierAtom()) == 4)

        context.override(DoubledMultiplierAtom()) { _ in -1 }
        #expect(context.watch(DoubledMultiplierAtom()) == 4)
        context[MultiplierAtom()] = 5
        #expect(context.watch(DoubledMultiplierAtom()) == -1)
    }

    @Test func aTypeOverrideSetLaterAppliesAtTheNextReset() {
        let context = AtomTestContext()
        #expect(context.watch(UserNameAtom(userID: 3)) != "overridden")

        context.override(UserNameAtom.self) { _ in "overridden" }
        context.reset(UserNameAtom(userID: 3))
        #expect(context.watch(UserNameAtom(userID: 3)) == "overridden")
    }

    @Test func anOverriddenTaskIsCancelledWhenTheAtomIsReleased() async {
        let context = AtomTestContext()
        let task = Task<Int, Never> {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return -1
        }
        context.override(NumberTaskAtom()) { _ in task }
        #expect(context.watch(NumberTaskAtom()) == task)
        #expect(!task.isCancelled)

        context.unwatch(NumberTaskAtom())
        #expect(task.isCancelled)
        #expect(await task.value == -1)
    }

    @Test func anOverriddenTaskIsCancelledWhenTheAtomIsRecomputed() {
        let context = AtomTestContext()
        var tasks: [Task<Int, Never>] = []
        context.override(NumberTaskAtom()) { _ in
            let task = Task<Int, Never> {
                try? await Task.sleep(for: .seconds(5))
                return 0
            }
            tasks.append(task)
            return task
        }
        context.watch(NumberTaskAtom())
        context.reset(NumberTaskAtom())
        #expect(tasks.count == 2)
        #expect(tasks[0].isCancelled)
        #expect(!tasks[1].isCancelled)
        context.unwatch(NumberTaskAtom())
        #expect(tasks[1].isCancelled)
    }

    @Test func anOverriddenTaskIsAwaitedByRefresh() async {
        let context = AtomTestContext()
        let gate = Gates.make()
        context.override(NumberTaskAtom()) { _ in
            Task { await Gates.named(gate.name).pass() }
        }
        context.watch(NumberTaskAtom())
        var refreshed = false
        let refresh = Task {
            let task = await context.refresh(NumberTaskAtom())
            refreshed = true
            return await task.value
        }
        #expect(await gate.waitForArrivals(2))
        #expect(!refreshed, "refresh waits for the overridden task")
        gate.open()
        #expect(await refresh.value == 2)
    }

    @Test func anOverriddenObservableObjectIsObserved() async {
        let context = AtomTestContext()
        let contact = Contact()
        context.override(ObservedContactAtom()) { _ in contact }
        #expect(context.watch(ObservedContactAtom()) === contact)

        contact.haveBirthday()
        #expect(await context.waitForUpdate(timeout: 60))
        #expect(context.watch(ObservedContactAtom()).age == 21)
    }
}
