/// The work of a phase atom's refresh, run in a task of its own so that it can be cancelled:
/// when the refresh is superseded (a newer refresh, a recomputation, the atom's release) or
/// the task awaiting the refresh is cancelled. It keeps the last value the work produced before
/// it was cancelled.
@MainActor
final class RefreshWork<Value> {
    /// The last value produced while not cancelled.
    private(set) var value: Value

    private init(_ initial: Value) {
        value = initial
    }

    /// Records a value produced by the work, unless the work was cancelled.
    func record(_ newValue: Value) {
        if !Task.isCancelled {
            value = newValue
        }
    }

    /// Runs `body`, which records what it produces, and returns the last value recorded
    /// (`initial` if none was before it was cancelled).
    static func run(
        initial: Value,
        context: AtomProducerContext<Value>,
        _ body: @escaping @MainActor (RefreshWork<Value>) async -> Void
    ) async -> Value {
        let work = RefreshWork(initial)
        let task = ImmediateTask.start { await body(work) }
        context.onTermination { task.cancel() }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return work.value
    }
}
