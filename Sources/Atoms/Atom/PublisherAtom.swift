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

/// Receives a publisher's events on the main actor; non-generic, so the `@Sendable` callbacks
/// that reach it capture no generic type.
@MainActor
class PhaseReceiver {
    /// Takes an event sent while subscribing, on the subscribing (main-actor) thread.
    nonisolated func takeSynchronously(_ event: PhaseSink.Event) {}
    /// Takes an event on the main actor.
    func receive(_ event: PhaseSink.Event) {}
}

/// One subscription of a ``PublisherAtom``'s computation to its publisher.
@MainActor
final class PublisherSubscription<Publisher: AtomsPublisherProtocol>: PhaseReceiver {
    typealias Phase = AsyncPhase<Publisher.Output, Publisher.Failure>

    private let context: AtomProducerContext<Phase>
    private var cancellable: AtomsCancellable?
    private var isSubscribing = true
    private(set) var initialPhase = Phase.suspending
    /// Phases sent synchronously while subscribing (e.g. `Just`), taken without a hop.
    private var synchronousPhases: [Phase] = []

    init(context: AtomProducerContext<Phase>) {
        self.context = context
        super.init()
    }

    func start(_ publisher: Publisher) {
        let subscribing = SubscribingFlag()
        cancellable = subscribe(publisher, delivering: MainActorTransfer(value: self), subscribing: subscribing)
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

    /// Records an event sent during `sink`, on the subscribing (main-actor) thread.
    override nonisolated func takeSynchronously(_ event: PhaseSink.Event) {
        MainActor.assumeIsolated {
            synchronousPhases.append(Self.phase(of: event))
        }
    }

    private static func phase(of event: PhaseSink.Event) -> Phase {
        switch event.value {
        case .value(let value): .success(value as! Publisher.Output)
        case .failure(let error): .failure(error as! Publisher.Failure)
        }
    }

    /// Takes an event on the main actor.
    override func receive(_ event: PhaseSink.Event) {
        if cancellable != nil {
            context.update(with: Self.phase(of: event))
        }
    }
}

/// Subscribes with `@Sendable` callbacks formed outside the main actor: a publisher may call
/// them on any thread, where main-actor closures would trap. Events sent while subscribing are
/// taken synchronously; later ones reach the receiver through main-actor tasks, in order.
private func subscribe<Publisher: AtomsPublisherProtocol>(
    _ publisher: Publisher,
    delivering receiver: MainActorTransfer<PhaseReceiver>,
    subscribing: SubscribingFlag
) -> AtomsCancellable {
    let sink = PhaseSink(
        synchronous: { event in receiver.value.takeSynchronously(event) },
        later: { event in
            Task { @MainActor in
                receiver.value.receive(event)
            }
        },
        subscribing: subscribing
    )
    return publisher.sink(receiveCompletion: sink.completion, receiveValue: sink.value)
}

/// Type-erased publisher callbacks, safe to call from any thread.
final class PhaseSink: Sendable {
    /// A value or a failure, type-erased; only unwrapped on the main actor.
    typealias Event = MainActorTransfer<Kind>

    enum Kind {
        case value(Any)
        case failure(any Error)
    }

    private let synchronous: @Sendable (Event) -> Void
    private let later: @Sendable (Event) -> Void
    private let subscribing: SubscribingFlag

    init(synchronous: @escaping @Sendable (Event) -> Void, later: @escaping @Sendable (Event) -> Void, subscribing: SubscribingFlag) {
        self.synchronous = synchronous
        self.later = later
        self.subscribing = subscribing
    }

    private func send(_ kind: Kind) {
        let event = Event(value: kind)
        subscribing.isSet ? synchronous(event) : later(event)
    }

    /// The `receiveValue` callback.
    func value<Output>(_ value: Output) {
        send(.value(value))
    }

    /// The `receiveCompletion` callback.
    func completion<Failure>(_ completion: Subscribers.Completion<Failure>) {
        if case .failure(let error) = completion {
            send(.failure(error))
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
