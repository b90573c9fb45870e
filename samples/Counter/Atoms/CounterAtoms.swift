import Atoms

/// The count, starting at zero.
public struct CounterAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> Int {
        0
    }
}

/// Whether the count is even: derived, recomputed whenever the count changes.
public struct IsEvenAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> Bool {
        context.watch(CounterAtom()).isMultiple(of: 2)
    }
}
