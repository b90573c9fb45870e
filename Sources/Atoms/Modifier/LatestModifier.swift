public extension Atom {
    /// The latest value of the atom for which `keyPath` was `true`, or `nil` until one was.
    ///
    /// ## Example
    /// ```swift
    /// let lastValid = context.watch(ItemAtom().latest(\.isValid))
    /// ```
    ///
    /// - Parameter keyPath: A `Bool` property deciding whether a value is kept.
    /// - Returns: An atom producing the latest matching value.
    func latest(_ keyPath: any KeyPath<Produced, Bool> & Sendable) -> ModifiedAtom<Self, LatestModifier<Produced>> {
        modifier(LatestModifier(keyPath: keyPath))
    }
}

/// A modifier that keeps the latest value matching a condition.
///
/// Use ``Atom/latest(_:)`` instead of using this modifier directly.
public struct LatestModifier<Base>: AtomModifier {
    /// The latest matching value, if any.
    public typealias Produced = Base?

    /// The identity of the modifier: its key path.
    public struct Key: Hashable, Sendable {
        fileprivate let keyPath: any KeyPath<Base, Bool> & Sendable

        fileprivate init(keyPath: any KeyPath<Base, Bool> & Sendable) {
            self.keyPath = keyPath
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.keyPath == rhs.keyPath
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(keyPath)
        }
    }

    private let keyPath: any KeyPath<Base, Bool> & Sendable

    init(keyPath: any KeyPath<Base, Bool> & Sendable) {
        self.keyPath = keyPath
    }

    /// The modifier's identity.
    public var key: Key {
        Key(keyPath: keyPath)
    }

    /// Watches the base atom and keeps its value when the condition holds.
    public func producer(atom: some Atom<Base>) -> AtomProducer<Produced> {
        AtomProducer { context in
            let value = context.transactionContext.watch(atom)
            let storage = context.storage { LatestStorage<Base>() }
            if value[keyPath: keyPath] {
                storage.latest = value
            }
            return storage.latest
        }
    }
}

/// The latest matching value, kept across recomputations.
@MainActor
private final class LatestStorage<Base> {
    var latest: Base?
}

extension LatestModifier.Key: AtomKeyDescribing {
    var keyDescription: String? { "\(keyPath)" }
}
