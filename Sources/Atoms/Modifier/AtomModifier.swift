/// Derives a different version of an atom: see ``Atom/modifier(_:)`` and the built-in modifiers
/// ``Atom/changes``, ``Atom/changes(of:)``, ``Atom/latest(_:)`` and ``Atom/previous``.
public protocol AtomModifier: Sendable {
    /// A type representing the stable identity of this modifier.
    associatedtype Key: Hashable & Sendable
    /// The type of value the base atom produces.
    associatedtype Base
    /// The type of value the modified atom produces.
    associatedtype Produced

    /// A unique value used to identify the modifier.
    var key: Key { get }

    /// The producer of the modified atom's value, given the base atom.
    func producer(atom: some Atom<Base>) -> AtomProducer<Produced>
}

public extension Atom {
    /// Applies a modifier to this atom.
    ///
    /// - Parameter modifier: The modifier.
    /// - Returns: The modified atom.
    func modifier<T: AtomModifier>(_ modifier: T) -> ModifiedAtom<Self, T> {
        ModifiedAtom(atom: self, modifier: modifier)
    }
}

/// A modifier whose modified atom is itself asynchronous and can be refreshed (`.phase`).
public protocol AsyncAtomModifier: AtomModifier {
    /// The producer of a refreshed value, given the base atom.
    func refreshProducer(atom: some AsyncAtom<Base>) -> AtomRefreshProducer<Produced>
}
