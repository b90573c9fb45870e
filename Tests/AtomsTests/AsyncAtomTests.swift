import Foundation
import Testing
@testable import Atoms

@MainActor
struct AsyncAtomTests {
    @Test func fetchBookWithMockedClientAsInTheUpstreamGuide() async throws {
        let context = AtomTestContext()
        let api = MockAPIClient()
        context.override(APIClientAtom()) { _ in api }
        let expected = Book(title: "A book", isbn: "ISBN000–0–0000–0000–0")
        api.response = expected

        let book = try await context.watch(FetchBookAtom(isbn: "ISBN000–0–0000–0000–0")).value
        #expect(book == expected)
    }

    @Test func taskAtomAndItsPhase() async {
        let context = AtomTestContext()
        #expect(await context.watch(DoubledTaskAtom()).value == 42)
        #expect(context.watch(DoubledTaskAtom().phase) == .suspending || context.watch(DoubledTaskAtom().phase) == .success(42))
        try? await context.wait(for: DoubledTaskAtom().phase, within: 300) { $0.isSuccess }
        #expect(context.watch(DoubledTaskAtom().phase) == .success(42))
    }

    @Test func taskRecomputesWhenDependencyChanges() async {
        let context = AtomTestContext()
        context.watch(MultiplierAtom())
        #expect(await context.watch(DoubledTaskAtom()).value == 42)
        context[MultiplierAtom()] = 3
        #expect(await context.watch(DoubledTaskAtom()).value == 63)
    }

    @Test func refreshOfAFailingTaskYieldsFailure() async throws {
        let context = AtomTestContext()
        let api = MockAPIClient()
        api.response = Book(title: "t", isbn: "1")
        context.override(APIClientAtom()) { _ in api }
        context.watch(FetchBookAtom(isbn: "1").phase)
        try await context.wait(for: FetchBookAtom(isbn: "1").phase, within: 300) { !$0.isSuspending }
        #expect(context.watch(FetchBookAtom(isbn: "1").phase).value == Book(title: "t", isbn: "1"))

        api.response = nil
        let phase = await context.refresh(FetchBookAtom(isbn: "1").phase)
        #expect(phase.isFailure)
        #expect((phase.error as? URLError)?.code == .unknown)
        #expect(context.watch(FetchBookAtom(isbn: "1").phase).isFailure)
    }

    @Test func refreshReturnsAndCachesTheNewTask() async {
        let context = AtomTestContext()
        context.watch(MultiplierAtom())
        let first = context.watch(DoubledTaskAtom())
        let refreshed = await context.refresh(DoubledTaskAtom())
        #expect(await refreshed.value == 42)
        #expect(context.read(DoubledTaskAtom()) == refreshed)
        #expect(first != refreshed)
    }

    @Test func asyncPhaseAtomWithTypedThrows() async throws {
        let context = AtomTestContext()
        #expect(context.watch(LookupAtom(name: "answer")) == .suspending)
        try await context.wait(for: LookupAtom(name: "answer"), within: 300) { !$0.isSuspending }
        #expect(context.watch(LookupAtom(name: "answer")) == .success(42))

        let failed = await context.refresh(LookupAtom(name: "question"))
        #expect(failed == .failure(.notFound("question")))
    }

    @Test func asyncSequenceGoesSuspendingSuccessFailure() async throws {
        let context = AtomTestContext()
        let feed = Feeds.feed(#function)
        #expect(context.watch(FeedAtom(name: #function)).isSuspending)

        feed.continuation.yield(1)
        try await context.wait(for: FeedAtom(name: #function), within: 300) { $0.value == 1 }
        feed.continuation.yield(2)
        try await context.wait(for: FeedAtom(name: #function), within: 300) { $0.value == 2 }
        feed.continuation.finish(throwing: LookupError.notFound("end"))
        try await context.wait(for: FeedAtom(name: #function), within: 300) { $0.isFailure }
        #expect(context.watch(FeedAtom(name: #function)).error as? LookupError == .notFound("end"))
    }

    @Test func releasedTaskAtomIsCancelled() async throws {
        let probe = Probes.make()
        let context = AtomTestContext()
        let task = context.watch(NeverEndingAtom(probe: #function))
        while probe.count("started") == 0 { await Task.yield() }
        context.unwatch(NeverEndingAtom(probe: #function))
        #expect(await task.value == -1)
        #expect(probe.count("cancelled") == 1)
    }

    @Test func resultArrivingAfterReleaseIsDropped() async throws {
        _ = Probes.make()
        let context = AtomTestContext()
        var snapshots = 0
        context.onUpdate = { snapshots += 1 }
        #expect(context.watch(SlowPhaseAtom(probe: #function)) == .suspending)
        context.unwatch(SlowPhaseAtom(probe: #function))
        // The work is cancelled; even if it finished, its result must not resurrect the atom.
        try await Task.sleep(for: .milliseconds(150))
        #expect(context.lookup(SlowPhaseAtom(probe: #function)) == nil)
        #expect(snapshots == 0)
        #expect(context.state.engine.invariantViolations().isEmpty)
    }

    @Test func debounceDeliversOnlyTheLastOfABurst() async throws {
        let context = AtomTestContext()
        let debounced = SourceAtom().debounce(for: 0.05)
        #expect(context.watch(debounced) == 0, "the first value is delivered at once")
        context.watch(SourceAtom())
        var delivered: [Int] = []
        context.onUpdate = { delivered.append(context.read(debounced)) }
        // A burst written synchronously: no delivery task can run in between.
        for value in 1...5 {
            context[SourceAtom()] = value
        }
        #expect(context.read(debounced) == 0, "held back while the burst goes on")
        try await context.wait(for: debounced, within: 300) { $0 == 5 }
        try await Task.sleep(for: .milliseconds(120))
        #expect(context.read(debounced) == 5)
        #expect(!delivered.contains(where: { (1...4).contains($0) }), "intermediate values never delivered")
    }

    @Test func taskAtomDependenciesSurviveItsRecomputation() async {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(MultiplierAtom())
        #expect(await context.watch(ServiceTaskAtom(probe: #function)).value == 14)
        // Watched before the first await: a dependency as soon as the computation returns.
        #expect(context.lookup(CountedServiceAtom(probe: #function)) == 7)
        context[MultiplierAtom()] = 3
        #expect(await context.watch(ServiceTaskAtom(probe: #function)).value == 21)
        #expect(probe.count("service created") == 1, "not released and re-created by the recomputation")
        #expect(context.state.engine.invariantViolations().isEmpty)
    }

    @Test func asyncResultsAreReportedAsAsyncResultTransactions() async throws {
        let root = AtomRoot()
        var causes: [AtomTransaction.Cause] = []
        root.observeTransactions { causes.append($0.cause) }
        let context = root.viewContext()
        context.watch(LookupAtom(name: "answer"))
        while context.read(LookupAtom(name: "answer")).isSuspending { await Task.yield() }
        #expect(causes == [.initialize, .asyncResult])
    }
}
