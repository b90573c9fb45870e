/// The work of a phase atom's refresh, run in a task of its own so that it can be cancelled:
/// when the refresh is superseded (a newer refresh, a recomputation, the atom's release) or
/// the task awaiting the refresh is cancelled. It keeps the last value the work produced before
/// it was cancelled.
@MainActor
final class RefreshWork<Value> {
    /// The last value produced while not cancelled.
    private(set) var value: Value
    /// Whether the refresh was cancelled before its work started: the work runs, as upstream's
    /// task does once cancelled, but what it produces is dropped.
    private var cancelledBeforeStart = false

    private init(_ initial: Value) {
        value = initial
    }

    /// Records a value produced by the work, unless the work was cancelled.
    func record(_ newValue: Value) {
        if !cancelledBeforeStart && !Task.isCancelled {
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
        // The work starts at once and may finish before it could see a cancellation of the
        // caller that came first (a `Task { await refresh(…) }` cancelled before it ran).
        work.cancelledBeforeStart = Task.isCancelled
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
