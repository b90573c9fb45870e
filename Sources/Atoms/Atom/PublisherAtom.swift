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

    init(context: AtomProducerContext<Phase>) {
        self.context = context
    }

    func start(_ publisher: Publisher) {
        let transfer = MainActorTransfer(value: self)
        cancellable = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    transfer.receive(.failure(error))
                }
            },
            receiveValue: { value in
                transfer.receive(.success(value))
            }
        )
        isSubscribing = false
    }

    func cancel() {
        cancellable?.cancel()
        cancellable = nil
    }

    /// Takes a phase on the main actor.
    func receive(_ phase: Phase) {
        if isSubscribing {
            initialPhase = phase
        } else if cancellable != nil {
            context.update(with: phase)
        }
    }
}

extension MainActorTransfer {
    /// Passes a phase to the subscription: synchronously when already on the main actor (a
    /// publisher sending while subscribing, or sending on the main thread), otherwise through a
    /// main-actor task.
    func receive<Publisher>(_ phase: AsyncPhase<Publisher.Output, Publisher.Failure>) where Value == PublisherSubscription<Publisher> {
        let phase = MainActorTransfer<AsyncPhase<Publisher.Output, Publisher.Failure>>(value: phase)
        if Thread.isMainThread {
            MainActor.assumeIsolated {
                value.receive(phase.value)
            }
        } else {
            Task { @MainActor in
                value.receive(phase.value)
            }
        }
    }
}
