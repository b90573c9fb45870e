import Synchronization

/// Something a publisher sent: a value or the failure that ended it, or its end.
enum PublisherEvent<Output, Failure: Error> {
    case output(Result<Output, Failure>)
    case finished
}

/// Receives a publisher's events on any thread and hands them, in the order sent, to a
/// main-actor handler.
///
/// The subscription is made when this is created, so nothing the publisher sends while
/// subscribing, or before the handler runs, is lost (reading through `values` would ask for
/// one element at a time and drop the rest). Events wait in a buffer that one main-actor task
/// at a time drains: they reach the main actor directly, never through the shared executor,
/// so a busy thread pool cannot hold them back. The callbacks are formed here, outside the
/// main actor, because a publisher may call them on any thread.
final class PublisherEvents<Publisher: AtomsPublisherProtocol>: EventSubscription, @unchecked Sendable {
    typealias Event = PublisherEvent<Publisher.Output, Publisher.Failure>

    private let handler: @MainActor (Event) -> Void
    /// What any thread may touch, only under `shared`'s lock. Its events and cancellable are
    /// not `Sendable`, but a publisher hands them across threads by its contract (as Combine
    /// does upstream): the lock is what orders those hand-overs.
    private struct Shared: @unchecked Sendable {
        var pending: [Event] = []
        var isDrainScheduled = false
        var isCancelled = false
        var cancellable: AtomsCancellable?
    }

    private let shared = Mutex(Shared())
    /// Main actor only: whether the handler was given `.finished`, which it gets exactly once.
    private var hasFinished = false

    /// Subscribes to `publisher`; `handler` gets its events on the main actor, then `.finished`
    /// when it completes or this is cancelled.
    init(subscribingTo publisher: Publisher, handler: @escaping @MainActor (Event) -> Void) {
        self.handler = handler
        let cancellable = publisher.sink(
            receiveCompletion: { [self] completion in
                if case .failure(let error) = completion {
                    enqueue(.output(.failure(error)))
                }
                enqueue(.finished)
            },
            receiveValue: { [self] value in
                enqueue(.output(.success(value)))
            }
        )
        let cancelledMeanwhile = shared.withLock {
            $0.cancellable = cancellable
            return $0.isCancelled
        }
        if cancelledMeanwhile {
            cancellable.cancel()
        }
    }

    /// Subscribes to `publisher`, hands each value or failure to `receive`, and returns when the
    /// publisher completes or the calling task is cancelled.
    @MainActor
    static func receiveAll(
        from publisher: Publisher,
        _ receive: @escaping @MainActor (Result<Publisher.Output, Publisher.Failure>) -> Void
    ) async {
        let completion = CompletionSignal()
        let events = PublisherEvents(subscribingTo: publisher) { event in
            switch event {
            case .output(let result): receive(result)
            case .finished: completion.signal()
            }
        }
        // (Through a non-generic existential: the cancellation handler may run on any thread.)
        let subscription: any EventSubscription = events
        await withTaskCancellationHandler {
            await completion.wait()
        } onCancel: {
            subscription.cancel()
        }
        events.cancel()
    }

    /// Ends the subscription: events not yet handed over are dropped, and the handler gets
    /// `.finished` if it has not yet.
    func cancel() {
        let cancellable = shared.withLock { shared in
            shared.isCancelled = true
            shared.pending = []
            defer { shared.cancellable = nil }
            return shared.cancellable
        }
        cancellable?.cancel()
        Task { @MainActor in
            self.finish()
        }
    }

    private func enqueue(_ event: Event) {
        let schedulesDrain = shared.withLock { shared in
            guard !shared.isCancelled else {
                return false
            }
            shared.pending.append(event)
            defer { shared.isDrainScheduled = true }
            return !shared.isDrainScheduled
        }
        if schedulesDrain {
            Task { @MainActor in
                self.drain()
            }
        }
    }

    /// Hands the buffered events over, including those that arrive meanwhile.
    @MainActor
    private func drain() {
        while true {
            let events: [Event] = shared.withLock { shared in
                defer { shared.pending = [] }
                if shared.pending.isEmpty {
                    shared.isDrainScheduled = false
                }
                return shared.pending
            }
            guard !events.isEmpty else {
                return
            }
            for event in events {
                if shared.withLock({ $0.isCancelled }) {
                    return finish()
                }
                switch event {
                case .output: handler(event)
                case .finished: finish()
                }
            }
        }
    }

    @MainActor
    private func finish() {
        guard !hasFinished else {
            return
        }
        hasFinished = true
        handler(.finished)
    }
}

/// A subscription that can be cancelled from any thread.
protocol EventSubscription: Sendable {
    func cancel()
}

/// A one-time signal a main-actor task can wait for.
@MainActor
final class CompletionSignal {
    private var isSignalled = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// Wakes the waiter, now or when it comes.
    func signal() {
        isSignalled = true
        waiter?.resume()
        waiter = nil
    }

    /// Returns once the signal was given.
    func wait() async {
        guard !isSignalled else {
            return
        }
        await withCheckedContinuation { waiter = $0 }
    }
}
