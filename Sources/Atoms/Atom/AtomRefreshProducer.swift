/// Describes how an async atom kind produces a refreshed value: it starts the work afresh and
/// returns once the work completed. Each async atom kind provides one.
public struct AtomRefreshProducer<Value> {
    let compute: @MainActor (AtomProducerContext<Value>) async -> Value

    init(compute: @escaping @MainActor (AtomProducerContext<Value>) async -> Value) {
        self.compute = compute
    }
}
