public extension Atom where Produced: Equatable {
    /// The atom's value, passed on to dependents and watchers only when it differs from the
    /// previous one.
    ///
    /// ## Example
    /// ```swift
    /// let count = context.watch(CountAtom().changes)
    /// ```
    var changes: ModifiedAtom<Self, ChangesModifier<Produced>> {
        modifier(ChangesModifier())
    }
}

/// A modifier that stops updates whose new value equals the old one.
///
/// Use ``Atom/changes`` instead of using this modifier directly.
public struct ChangesModifier<Produced: Equatable>: AtomModifier {
    /// The base atom's value type.
    public typealias Base = Produced

    /// The identity of the modifier: every instance is the same.
    public struct Key: Hashable, Sendable {}

    /// The modifier's identity.
    public var key: Key {
        Key()
    }

    /// Watches the base atom; propagates only changed values.
    public func producer(atom: some Atom<Base>) -> AtomProducer<Produced> {
        AtomProducer(shouldPropagate: { $0 != $1 }) { context in
            context.transactionContext.watch(atom)
        }
    }
}

extension ChangesModifier.Key: AtomKeyDescribing {
    var keyDescription: String? { nil }
}
