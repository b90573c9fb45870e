public extension Atom {
    /// A property of the atom's value, passed on only when it differs from the previous one.
    ///
    /// ## Example
    /// ```swift
    /// let description = context.watch(CountAtom().changes(of: \.description))
    /// ```
    ///
    /// - Parameter keyPath: The property to derive.
    /// - Returns: An atom producing that property.
    func changes<T: Equatable>(of keyPath: any KeyPath<Produced, T> & Sendable) -> ModifiedAtom<Self, ChangesOfModifier<Produced, T>> {
        modifier(ChangesOfModifier(keyPath: keyPath))
    }
}

/// A modifier that derives a property and stops updates in which it did not change.
///
/// Use ``Atom/changes(of:)`` instead of using this modifier directly.
public struct ChangesOfModifier<Base, Produced: Equatable>: AtomModifier {
    /// The identity of the modifier: its key path.
    public struct Key: Hashable, Sendable {
        fileprivate let keyPath: any KeyPath<Base, Produced> & Sendable

        fileprivate init(keyPath: any KeyPath<Base, Produced> & Sendable) {
            self.keyPath = keyPath
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.keyPath == rhs.keyPath
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(keyPath)
        }
    }

    private let keyPath: any KeyPath<Base, Produced> & Sendable

    init(keyPath: any KeyPath<Base, Produced> & Sendable) {
        self.keyPath = keyPath
    }

    /// The modifier's identity.
    public var key: Key {
        Key(keyPath: keyPath)
    }

    /// Watches the base atom and derives the property; propagates only changed values.
    public func producer(atom: some Atom<Base>) -> AtomProducer<Produced> {
        AtomProducer(shouldPropagate: { $0 != $1 }) { context in
            context.transactionContext.watch(atom)[keyPath: keyPath]
        }
    }
}

extension ChangesOfModifier.Key: AtomKeyDescribing {
    var keyDescription: String? { "\(keyPath)" }
}
