import Foundation

/// An atom whose value is the ``AsyncPhase`` of a publisher's output: `.suspending` until the
/// first value, `.success` of each value, `.failure` when the publisher fails.
///
/// Uses Combine on Apple platforms and OpenCombine on Linux.
///
/// ## Example
/// ```swift
/// struct GreetingAtom: PublisherAtom, Hashable {
///     func publisher(context: Context) -> AnyPublisher<String, Never> {
///         Just("hello").eraseToAnyPublisher()
///     }
/// }
/// ```
public protocol PublisherAtom: AsyncAtom where Produced == AsyncPhase<Publisher.Output, Publisher.Failure> {
    /// The type of publisher the atom subscribes to.
    associatedtype Publisher: AtomsPublisherProtocol

    /// Creates the publisher; atoms watched through `context` become dependencies.
    @MainActor
    func publisher(context: Context) -> Publisher
}

public extension PublisherAtom {
    /// Subscribes to the publisher; values it sends while subscribing become the first value,
    /// later ones are delivered on the main actor.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let subscription = PublisherSubscription<Publisher>(context: context)
            subscription.start(publisher(context: context.transactionContext))
            context.onTermination { subscription.cancel() }
            return subscription.initialPhase
        }
    }

    /// Subscribes afresh and returns the phase once the publisher completes.
    var refreshProducer: AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let publisher = publisher(context: context.transactionContext)
            var phase = Produced.suspending
            do {
                for try await value in publisher.values {
                    phase = .success(value)
                }
            } catch let error as Publisher.Failure {
                phase = .failure(error)
            } catch {}
            return phase
        }
    }
}

/// One subscription of a ``PublisherAtom``'s computation to its publisher.
@MainActor
final class PublisherSubscription<Publisher: AtomsPublisherProtocol> {
    typealias Phase = AsyncPhase<Publisher.Output, Publisher.Failure>

    private let context: AtomProducerContext<Phase>
    private var cancellable: AtomsCancellable?
    private var isSubscribing = true
    private(set) var initialPhase = Phase.suspending
    /// Phases sent synchronously while subscribing (e.g. `Just`), taken without a hop.
    private var synchronousPhases: [Phase] = []

    init(context: AtomProducerContext<Phase>) {
        self.context = context
    }

    func start(_ publisher: Publisher) {
        let transfer = MainActorTransfer(value: self)
        let subscribing = SubscribingFlag()
        cancellable = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    subscribing.isSet ? transfer.value.takeSynchronously(.failure(error)) : transfer.receive(.failure(error))
                }
            },
            receiveValue: { value in
                subscribing.isSet ? transfer.value.takeSynchronously(.success(value)) : transfer.receive(.success(value))
            }
        )
        subscribing.clear()
        isSubscribing = false
        if let last = synchronousPhases.last {
            initialPhase = last
        }
    }

    func cancel() {
        cancellable?.cancel()
        cancellable = nil
    }

    /// Records a phase sent during `sink`, on the subscribing (main-actor) thread.
    nonisolated func takeSynchronously(_ phase: Phase) {
        let phase = MainActorTransfer(value: phase)
        MainActor.assumeIsolated {
            synchronousPhases.append(phase.value)
        }
    }

    /// Takes a phase on the main actor.
    func receive(_ phase: Phase) {
        if cancellable != nil {
            context.update(with: phase)
        }
    }
}

extension MainActorTransfer {
    /// Passes a phase to the subscription on the main actor, through a main-actor task, in the
    /// order the publisher sent them. (Values sent while subscribing are taken synchronously
    /// by `start`, which runs on the main actor.)
    func receive<Publisher>(_ phase: AsyncPhase<Publisher.Output, Publisher.Failure>) where Value == PublisherSubscription<Publisher> {
        let phase = MainActorTransfer<AsyncPhase<Publisher.Output, Publisher.Failure>>(value: phase)
        Task { @MainActor in
            value.receive(phase.value)
        }
    }
}

/// Set while `sink` subscribes, so callbacks made during it on the subscribing thread are told
/// apart from others, which may come from any thread at any time.
final class SubscribingFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = true
    private let thread = pthread_self()

    /// Whether the caller is the subscribing thread, still inside `sink`.
    var isSet: Bool {
        lock.withLock { value } && pthread_equal(pthread_self(), thread) != 0
    }

    func clear() {
        lock.withLock { value = false }
    }
}
