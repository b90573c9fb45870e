import Atoms

/// The count, starting at zero.
struct CounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int {
        0
    }
}

/// Whether the count is even: derived, recomputed whenever the count changes.
struct IsEvenAtom: ValueAtom, Hashable {
    func value(context: Context) -> Bool {
        context.watch(CounterAtom()).isMultiple(of: 2)
    }
}
