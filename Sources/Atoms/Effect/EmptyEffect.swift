/// An effect that does nothing: the default effect of every atom.
public struct EmptyEffect: AtomEffect {
    /// Creates an empty effect.
    public init() {}
}
