/// An atom that starts a non-throwing `Task` from an `async` function.
///
/// The task is cancelled when the atom recomputes or is released.
///
/// ## Example
/// ```swift
/// struct FetchUserAtom: TaskAtom, Hashable {
///     func value(context: Context) async -> User? { await fetchUser() }
/// }
/// let user = await context.watch(FetchUserAtom()).value
/// ```
public protocol TaskAtom: AsyncAtom where Produced == Task<Success, Never> {
    /// The type of value the task produces.
    associatedtype Success: Sendable

    /// The work of the task; atoms watched through `context` become dependencies.
    @MainActor
    func value(context: Context) async -> Success
}

public extension TaskAtom {
    /// Starts the task; it is cancelled when the atom recomputes or is released.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let transaction = context.transactionContext
            return ImmediateTask.start { await value(context: transaction) }
        } manage: { task, context in
            TaskValueManagement.manage(task, context: context)
        }
    }

    /// Starts a new task and waits for it to finish.
    var refreshProducer: AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let transaction = context.transactionContext
            return ImmediateTask.start { await value(context: transaction) }
        } complete: { task, context in
            await TaskValueManagement.complete(task, context: context)
        }
    }
}
