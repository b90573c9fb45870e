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
    /// Subscribes to the publisher at once and starts at `.suspending`, as upstream: every
    /// value or failure it sends, even while subscribing, arrives later as an update, in the
    /// order sent. The subscription is cancelled when the atom recomputes or is released.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let events = PublisherEvents(subscribingTo: publisher(context: context.transactionContext)) { event in
                if case .output(let result) = event {
                    context.update(with: AsyncPhase(result))
                }
            }
            context.onTermination { events.cancel() }
            return .suspending
        }
    }

    /// Subscribes afresh and returns the phase of the last event once the publisher completes
    /// (`.suspending` if it sent nothing before it completed or the refresh was cancelled).
    var refreshProducer: AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let publisher = publisher(context: context.transactionContext)
            return await RefreshWork.run(initial: Produced.suspending, context: context) { work in
                await PublisherEvents.receiveAll(from: publisher) { result in
                    work.record(AsyncPhase(result))
                }
            }
        }
    }
}
