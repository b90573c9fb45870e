/// An atom that starts a throwing `Task` from an `async throws` function.
///
/// The task is cancelled when the atom recomputes or is released.
///
/// ## Example
/// ```swift
/// struct FetchMoviesAtom: ThrowingTaskAtom, Hashable {
///     func value(context: Context) async throws -> [Movie] { try await fetchMovies() }
/// }
/// let movies = try await context.watch(FetchMoviesAtom()).value
/// ```
public protocol ThrowingTaskAtom: AsyncAtom where Produced == Task<Success, any Error> {
    /// The type of value the task produces.
    associatedtype Success: Sendable

    /// The work of the task; atoms watched through `context` become dependencies.
    @MainActor
    func value(context: Context) async throws -> Success
}

public extension ThrowingTaskAtom {
    /// Starts the task; it is cancelled when the atom recomputes or is released.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let transaction = context.transactionContext
            return ImmediateTask.start { try await value(context: transaction) }
        } manage: { task, context in
            TaskValueManagement.manage(task, context: context)
        }
    }

    /// Starts a new task and waits for it to finish.
    var refreshProducer: AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let transaction = context.transactionContext
            return ImmediateTask.start { try await value(context: transaction) }
        } complete: { task, context in
            await TaskValueManagement.complete(task, context: context)
        }
    }
}
