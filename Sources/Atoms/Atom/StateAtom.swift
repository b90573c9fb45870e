/// An atom that provides a read-write state, starting from a default value.
///
/// ## Example
/// ```swift
/// struct CounterAtom: StateAtom, Hashable {
///     func defaultValue(context: Context) -> Int { 0 }
/// }
///
/// context[CounterAtom()] += 1
/// ```
public protocol StateAtom: Atom where Produced == Value {
    /// The type of state that this atom holds.
    associatedtype Value

    /// Creates the initial state; atoms watched through `context` become its dependencies.
    ///
    /// - Parameter context: A context to watch and read other atoms.
    /// - Returns: The initial state.
    @MainActor
    func defaultValue(context: Context) -> Value
}

public extension StateAtom {
    /// Produces the initial value by calling ``defaultValue(context:)``.
    var producer: AtomProducer<Value> {
        AtomProducer { context in
            defaultValue(context: context.transactionContext)
        }
    }
}
