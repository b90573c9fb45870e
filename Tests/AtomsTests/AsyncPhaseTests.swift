import Testing
import Foundation
import Atoms

struct AsyncPhaseTests {
    enum Failure: Error, Equatable { case bad, worse }

    @Test func initializersAndAccessors() async {
        let success = AsyncPhase<Int, Failure>(.success(1))
        let failure = AsyncPhase<Int, Failure>(.failure(.bad))
        let suspending = AsyncPhase<Int, Failure>.suspending
        #expect(success.isSuccess && !success.isFailure && !success.isSuspending)
        #expect(failure.isFailure && failure.error == .bad && failure.value == nil)
        #expect(suspending.isSuspending && suspending.value == nil && suspending.error == nil)
        #expect(success.value == 1)

        let ran = await AsyncPhase<Int, Failure> { 5 }
        let threw = await AsyncPhase<Int, Failure> { () async throws(Failure) -> Int in throw .worse }
        #expect(ran == .success(5))
        #expect(threw == .failure(.worse))
        let untyped = await AsyncPhase<Int, any Error> { try await Task.sleep(for: .zero); return 3 }
        #expect(untyped.value == 3)
    }

    @Test func transformations() {
        let success = AsyncPhase<Int, Failure>.success(2)
        let failure = AsyncPhase<Int, Failure>.failure(.bad)
        #expect(success.map { $0 * 10 } == .success(20))
        #expect(failure.map { $0 * 10 } == .failure(.bad))
        #expect(failure.mapError { _ in Failure.worse } == .failure(.worse))
        #expect(success.flatMap { _ in AsyncPhase<String, Failure>.failure(.worse) } == .failure(.worse))
        #expect(failure.flatMapError { _ in AsyncPhase<Int, Failure>.success(0) } == .success(0))
        #expect(AsyncPhase<Int, Failure>.suspending.map { $0 + 1 } == .suspending)
        #expect(AsyncPhase<Int, Failure>.suspending.flatMapError { _ in AsyncPhase<Int, Failure>.success(1) } == .suspending)
    }
}

/// An actor whose state an `AsyncPhase(catching:)` body uses without sending it.
actor PhaseCounter {
    private var count = 0

    func nextPhase(failing: Bool) async -> AsyncPhase<Int, PhaseCounterError> {
        await AsyncPhase(catching: { () throws(PhaseCounterError) in
            count += 1
            if failing {
                throw PhaseCounterError.failed(count)
            }
            return count
        })
    }
}

extension PhaseCounter {
    /// Upstream's trailing-closure spelling, inside an actor.
    func trailingClosurePhase() async -> AsyncPhase<Int, PhaseCounterError> {
        await AsyncPhase { () throws(PhaseCounterError) in
            count += 1
            return count
        }
    }
}

enum PhaseCounterError: Error, Equatable {
    case failed(Int)
}

@MainActor
struct AsyncPhaseIsolationTests {
    @Test func aCatchingBodyRunsOnTheCallersActor() async {
        let counter = PhaseCounter()
        #expect(await counter.nextPhase(failing: false) == .success(1))
        #expect(await counter.nextPhase(failing: true) == .failure(.failed(2)))
    }

    @Test func aMainActorBodyUsesMainActorState() async {
        let probe = Probe()
        let phase = await AsyncPhase(catching: { () throws(PhaseCounterError) -> Int in
            probe.record("ran")
            return probe.count("ran")
        })
        #expect(phase == .success(1))
    }

    /// Upstream's tests write `AsyncPhase { … }` with a trailing closure: it resolves to the
    /// isolated initializer, so an actor's or the main actor's state is used without sending it
    /// (this compiles only when it does).
    @Test func aTrailingClosureBodyRunsOnTheCallersActor() async {
        let counter = PhaseCounter()
        #expect(await counter.trailingClosurePhase() == .success(1))
        let probe = Probe()
        let phase = await AsyncPhase { () throws(PhaseCounterError) -> Int in
            probe.record("ran")
            return probe.count("ran")
        }
        #expect(phase == .success(1))
        let untyped: AsyncPhase<Int, any Error> = await AsyncPhase {
            probe.record("ran")
            return probe.count("ran")
        }
        #expect(untyped.value == 2)
    }

    @Test func anUntypedCatchingBodyFailsWithAnyError() async {
        let phase: AsyncPhase<Int, any Error> = await AsyncPhase(catching: { () async throws -> Int in
            throw URLError(.badURL)
        })
        #expect((phase.error as? URLError)?.code == .badURL)
    }
}
