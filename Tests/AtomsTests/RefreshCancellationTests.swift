import Foundation
import Testing
import Atoms
import TestSupport

/// A refresh that is superseded (by the atom's release, a newer refresh or a recomputation) or
/// whose task is cancelled commits nothing, as upstream: its result is dropped and no
/// subscriber is told.
@MainActor
struct RefreshCancellationTests {
    /// Watches the gated phase atom and lets its first computation finish; returns the atom.
    private func settledPhaseAtom(_ context: AtomTestContext, _ gate: Gate) async throws -> GatedPhaseAtom {
        let atom = GatedPhaseAtom(name: gate.name)
        #expect(context.watch(atom) == .suspending)
        gate.open()
        try await context.wait(for: atom, within: 60) { $0 == .success(100) }
        gate.close()
        return atom
    }

    @Test func aRefreshOfAReleasedAtomCommitsNothingAndReturnsSuspending() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = try await settledPhaseAtom(context, gate)
        let updates = UpdateCount(context)

        let refresh = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        context.unwatch(atom)
        #expect(await refresh.value == .suspending)
        #expect(updates.value == 0)
        #expect(context.lookup(atom) == nil)
    }

    @Test func aNewerRefreshSupersedesAnEarlierOne() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = try await settledPhaseAtom(context, gate)
        let updates = UpdateCount(context)

        let first = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        let second = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(3))
        gate.open()
        #expect(await first.value == .suspending)
        #expect(await second.value == .success(300))
        #expect(updates.value == 1, "only the newer refresh commits")
        #expect(context.watch(atom) == .success(300))
    }

    @Test func aRecomputationSupersedesARefresh() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = try await settledPhaseAtom(context, gate)

        let refresh = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        // The refresh watched the input before it waited: changing it recomputes the atom.
        context[GateInputAtom(name: gate.name)] = 7
        #expect(context.watch(atom) == .suspending)
        #expect(await refresh.value == .suspending)
        gate.open()
        try await context.wait(for: atom, within: 60) { $0 == .success(307) }
        #expect(context.watch(atom) == .success(307), "the recomputation's result, not the refresh's")
    }

    @Test func aRefreshWhoseTaskIsCancelledCommitsNothing() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = try await settledPhaseAtom(context, gate)
        let updates = UpdateCount(context)

        let refresh = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        refresh.cancel()
        #expect(await refresh.value == .suspending)
        #expect(updates.value == 0)
        #expect(context.watch(atom) == .success(100), "the value before the refresh stays")
    }

    /// Upstream's own test: a refresh whose task is cancelled before it runs returns
    /// `.suspending`, even when the atom's body would finish without suspending.
    @Test func aRefreshCancelledBeforeItRunsReturnsSuspending() async throws {
        let context = AtomTestContext()
        let atom = LookupAtom(name: "answer")
        context.watch(atom)
        try await context.wait(for: atom, within: 60) { $0 == .success(42) }
        let updates = UpdateCount(context)

        // The task cannot start before the test suspends: it is cancelled first.
        let refresh = Task { await context.refresh(atom) }
        refresh.cancel()
        #expect(await refresh.value == .suspending)
        #expect(updates.value == 0)
        #expect(await context.refresh(atom) == .success(42), "an uncancelled refresh still returns the body's value")
    }

    @Test func aRefreshThatCompletesCommitsOnceAndNotifies() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = try await settledPhaseAtom(context, gate)
        let updates = UpdateCount(context)

        gate.open()
        #expect(await context.refresh(atom) == .success(200))
        #expect(updates.value == 1)
        #expect(context.watch(atom) == .success(200))
    }

    @Test func aTaskAtomsRefreshOfAReleasedAtomReturnsTheCancelledTask() async {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = GatedTaskAtom(name: gate.name)
        let first = context.watch(atom)
        gate.open()
        #expect(await first.value == 1)
        gate.close()
        let updates = UpdateCount(context)

        let refresh = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        context.unwatch(atom)
        let refreshed = await refresh.value
        #expect(refreshed.isCancelled)
        #expect(refreshed != first)
        #expect(updates.value == 0)
        #expect(context.lookup(atom) == nil)
    }

    @Test func aTaskAtomsRefreshWhoseTaskIsCancelledCancelsItsWork() async {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = GatedTaskAtom(name: gate.name)
        let first = context.watch(atom)
        gate.open()
        _ = await first.value
        gate.close()

        let refresh = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        refresh.cancel()
        let refreshed = await refresh.value
        #expect(refreshed.isCancelled)
        #expect(context.watch(atom) == first, "the cached task stays")
    }

    @Test func aThrowingTaskAtomsRefreshSupersededByANewerOneCommitsOnlyTheNewer() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = GatedThrowingTaskAtom(name: gate.name)
        let first = context.watch(atom)
        #expect(await gate.waitForArrivals(1))
        let updates = UpdateCount(context)

        let earlier = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        let later = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(3))
        gate.open()
        let superseded = await earlier.value
        #expect(superseded.isCancelled)
        await #expect(throws: CancellationError.self) { try await superseded.value }
        let refreshed = await later.value
        #expect(try await refreshed.value == 3)
        #expect(first.isCancelled, "the first computation ended when the refresh began")
        #expect(updates.value == 1)
        #expect(context.watch(atom) == refreshed)
    }

    @Test func anAsyncSequenceRefreshOfAReleasedAtomCommitsNothing() async throws {
        let context = AtomTestContext()
        let gate = Gates.make()
        let atom = GatedSequenceAtom(name: gate.name)
        context.watch(atom)
        try await context.wait(for: atom, within: 60) { $0.value == 1 }
        let updates = UpdateCount(context)

        let refresh = Task { await context.refresh(atom) }
        #expect(await gate.waitForArrivals(2))
        context.unwatch(atom)
        _ = await refresh.value
        #expect(updates.value == 0)
        #expect(context.lookup(atom) == nil)
        gate.open()
    }

    @Test func aPublisherRefreshOfAReleasedAtomCommitsNothing() async throws {
        let context = AtomTestContext()
        let subject = Subjects.subject(#function)
        let atom = SubjectAtom(name: #function)
        context.watch(atom)
        let updates = UpdateCount(context)

        var finished = false
        let refresh = Task {
            defer { finished = true }
            return await context.refresh(atom)
        }
        await Task.yield()
        subject.send(4)
        #expect(!finished, "a refresh waits until the publisher completes")
        context.unwatch(atom)
        _ = await refresh.value
        #expect(updates.value == 0)
        #expect(context.lookup(atom) == nil)
    }
}

/// Counts the updates a test context is told about from now on.
@MainActor
final class UpdateCount {
    private(set) var value = 0

    init(_ context: AtomTestContext) {
        context.onUpdate = { [weak self] in self?.value += 1 }
    }
}
