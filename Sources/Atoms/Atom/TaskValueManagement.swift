/// How task atoms take charge of their `Task` value, whether they started it or an override
/// gave it: the task is cancelled when the atom's computation ends (recomputation, refresh,
/// release), and a refresh waits for it.
@MainActor
enum TaskValueManagement {
    /// Cancels the task when the computation that holds it ends.
    static func manage<Success, Failure>(_ task: Task<Success, Failure>, context: AtomProducerContext<Task<Success, Failure>>) {
        context.onTermination { task.cancel() }
    }

    /// Cancels the task when the refresh is superseded, or when the task awaiting the refresh
    /// is cancelled, and waits until it finished.
    static func complete<Success, Failure>(_ task: Task<Success, Failure>, context: AtomProducerContext<Task<Success, Failure>>) async {
        context.onTermination { task.cancel() }
        await withTaskCancellationHandler {
            _ = await task.result
        } onCancel: {
            task.cancel()
        }
    }
}
