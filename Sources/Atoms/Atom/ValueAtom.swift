/// An atom that provides a read-only value, computed from other atoms or injected as a dependency.
///
/// ## Example
/// ```swift
/// struct LocaleAtom: ValueAtom, Hashable {
///     func value(context: Context) -> Locale { .current }
/// }
/// ```
public protocol ValueAtom: Atom where Produced == Value {
    /// The type of value that this atom produces.
    associatedtype Value

    /// Computes the value; atoms watched through `context` become its dependencies.
    ///
    /// - Parameter context: A context to watch and read other atoms.
    /// - Returns: The value.
    @MainActor
    func value(context: Context) -> Value
}

public extension ValueAtom {
    /// Produces the value by calling ``value(context:)``.
    var producer: AtomProducer<Value> {
        AtomProducer { context in
            value(context: context.transactionContext)
        }
    }
}
