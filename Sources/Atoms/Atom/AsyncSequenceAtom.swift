/// An atom whose value is the ``AsyncPhase`` of an `AsyncSequence`: `.suspending` until the first
/// element, `.success` of each element in turn, `.failure` when the sequence throws.
///
/// ## Example
/// ```swift
/// struct TicksAtom: AsyncSequenceAtom, Hashable {
///     func sequence(context: Context) -> AsyncStream<Int> { makeTicks() }
/// }
/// ```
public protocol AsyncSequenceAtom: AsyncAtom where Produced == AsyncPhase<Sequence.Element, any Error> {
    /// The type of sequence the atom iterates.
    associatedtype Sequence: AsyncSequence

    /// Creates the sequence; atoms watched through `context` become dependencies.
    @MainActor
    func sequence(context: Context) -> Sequence
}

public extension AsyncSequenceAtom {
    /// Iterates the sequence, delivering each element as a new phase.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let sequence = sequence(context: context.transactionContext)
            let task = Task {
                do {
                    for try await element in sequence {
                        if Task.isCancelled { return }
                        context.update(with: .success(element))
                    }
                } catch {
                    if !Task.isCancelled {
                        context.update(with: .failure(error))
                    }
                }
            }
            context.onTermination { task.cancel() }
            return .suspending
        }
    }

    /// Iterates a fresh sequence to its end and returns the phase of its last element or
    /// error (`.suspending` when it finished without elements, or was cancelled before the
    /// first).
    var refreshProducer: AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let sequence = sequence(context: context.transactionContext)
            return await RefreshWork.run(initial: .suspending, context: context) { work in
                do {
                    for try await element in sequence {
                        work.record(.success(element))
                    }
                } catch {
                    work.record(.failure(error))
                }
            }
        }
    }
}
