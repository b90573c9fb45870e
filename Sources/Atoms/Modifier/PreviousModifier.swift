public extension Atom {
    /// The atom's value before its latest update, or `nil` before the first update.
    ///
    /// ## Example
    /// ```swift
    /// let before = context.watch(CounterAtom().previous)
    /// ```
    var previous: ModifiedAtom<Self, PreviousModifier<Produced>> {
        modifier(PreviousModifier())
    }
}

/// A modifier that produces the previous value of the base atom.
///
/// Use ``Atom/previous`` instead of using this modifier directly.
public struct PreviousModifier<Base>: AtomModifier {
    /// The previous value, if any.
    public typealias Produced = Base?

    /// The identity of the modifier: every instance is the same.
    public struct Key: Hashable, Sendable {}

    /// The modifier's identity.
    public var key: Key {
        Key()
    }

    /// Watches the base atom and returns the value it had before.
    public func producer(atom: some Atom<Base>) -> AtomProducer<Produced> {
        AtomProducer { context in
            let value = context.transactionContext.watch(atom)
            let storage = context.storage { PreviousStorage<Base>() }
            let previous = storage.current
            storage.current = value
            return previous
        }
    }
}

/// The last seen value of the base atom, kept across recomputations.
@MainActor
private final class PreviousStorage<Base> {
    var current: Base?
}

extension PreviousModifier.Key: AtomKeyDescribing {
    var keyDescription: String? { nil }
}
