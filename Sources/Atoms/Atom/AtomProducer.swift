/// Describes how an atom kind produces its value. Each atom kind provides one; user code never
/// creates or inspects it.
public struct AtomProducer<Value> {
    /// Computes the value; dependencies watched through the context are recorded.
    let compute: @MainActor (AtomProducerContext<Value>) -> Value
    /// Takes charge of a value, computed or given by an override: cancels a task when the
    /// computation ends, observes an object. `nil` for values that need nothing.
    let manage: (@MainActor (Value, AtomProducerContext<Value>) -> Void)?
    /// Decides whether a new value is passed on to dependents and subscribers; `nil` means
    /// always (the upstream rule: equal values still propagate).
    let shouldPropagate: (@MainActor (_ oldValue: Value, _ newValue: Value) -> Bool)?

    init(
        shouldPropagate: (@MainActor (_ oldValue: Value, _ newValue: Value) -> Bool)? = nil,
        compute: @escaping @MainActor (AtomProducerContext<Value>) -> Value,
        manage: (@MainActor (Value, AtomProducerContext<Value>) -> Void)? = nil
    ) {
        self.compute = compute
        self.manage = manage
        self.shouldPropagate = shouldPropagate
    }
}
