/// Describes how an async atom kind produces a refreshed value: it starts the work afresh and
/// returns once the work completed. Each async atom kind provides one.
public struct AtomRefreshProducer<Value> {
    /// Starts the work and returns its value (for a task atom, the task).
    let compute: @MainActor (AtomProducerContext<Value>) async -> Value
    /// Waits until a value, computed or given by an override, is complete (a task finished),
    /// and has it cancelled if the refresh is superseded. `nil` when `compute` already waits.
    let complete: (@MainActor (Value, AtomProducerContext<Value>) async -> Void)?

    init(
        compute: @escaping @MainActor (AtomProducerContext<Value>) async -> Value,
        complete: (@MainActor (Value, AtomProducerContext<Value>) async -> Void)? = nil
    ) {
        self.compute = compute
        self.complete = complete
    }
}
