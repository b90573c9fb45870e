/// An atom whose value is the ``AsyncPhase`` of an asynchronous function: `.suspending` first,
/// then `.success` or `.failure` (typed throws: `throws(E)` gives `AsyncPhase<T, E>`).
///
/// ## Example
/// ```swift
/// struct TrendingSongsAtom: AsyncPhaseAtom, Hashable {
///     func value(context: Context) async throws(FetchError) -> [Song] { try await fetch() }
/// }
/// ```
public protocol AsyncPhaseAtom: AsyncAtom where Produced == AsyncPhase<Success, Failure> {
    /// The type of value the function produces.
    associatedtype Success
    /// The type of error the function throws.
    associatedtype Failure: Error

    /// The asynchronous work; atoms watched through `context` become dependencies.
    @MainActor
    func value(context: Context) async throws(Failure) -> Success
}

public extension AsyncPhaseAtom {
    /// Starts the work and delivers its outcome as a new phase.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let transaction = context.transactionContext
            let task = ImmediateTask.start {
                let phase = await phase(context: transaction)
                if !Task.isCancelled {
                    context.update(with: phase)
                }
            }
            context.onTermination { task.cancel() }
            return .suspending
        }
    }

    /// Runs the work afresh and returns its outcome; `.suspending` when the refresh was
    /// superseded or cancelled before the work finished.
    var refreshProducer: AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let transaction = context.transactionContext
            return await RefreshWork.run(initial: .suspending, context: context) { work in
                work.record(await phase(context: transaction))
            }
        }
    }

    @MainActor
    private func phase(context: Context) async -> Produced {
        do throws(Failure) {
            return .success(try await value(context: context))
        } catch {
            return .failure(error)
        }
    }
}
