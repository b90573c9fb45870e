/// Declares that a type can produce a value that can be accessed from everywhere.
///
/// The value an atom produces is created when the atom is first watched, cached while anything
/// watches it, and released when nothing does any more (unless the atom is ``KeepAlive``).
///
/// ## Example
/// ```swift
/// struct CounterAtom: StateAtom, Hashable {
///     func defaultValue(context: Context) -> Int { 0 }
/// }
/// ```
public protocol Atom<Produced>: Sendable {
    /// A type representing the stable identity of this atom.
    associatedtype Key: Hashable & Sendable

    /// The type of value that this atom produces.
    associatedtype Produced

    /// The type of effect for managing side effects.
    associatedtype Effect: AtomEffect = EmptyEffect

    /// The context passed to the atom's primary function, to watch and read other atoms.
    typealias Context = AtomTransactionContext

    /// The context passed to effects, `reset(context:)` and `refresh(context:)`.
    typealias CurrentContext = AtomCurrentContext

    /// A unique value used to identify the atom among atoms of the same type.
    ///
    /// If the atom conforms to `Hashable`, it adopts itself as its key by default.
    var key: Key { get }

    /// An effect for managing side effects that are synchronized with this atom's lifecycle.
    ///
    /// - Parameter context: A context to read, set, and otherwise interact with other atoms.
    /// - Returns: An effect for managing side effects.
    @MainActor
    @AtomEffectBuilder
    func effect(context: CurrentContext) -> Effect

    // --- Internal ---

    /// A producer that produces the value of this atom. Provided by each atom kind.
    var producer: AtomProducer<Produced> { get }
}

public extension Atom {
    /// No effect.
    @MainActor
    func effect(context: CurrentContext) -> Effect where Effect == EmptyEffect {
        EmptyEffect()
    }
}

public extension Atom where Self == Key {
    /// The atom itself, for `Hashable` atoms.
    var key: Self {
        self
    }
}
