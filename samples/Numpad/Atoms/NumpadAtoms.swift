import Atoms

/// The digits typed so far: the state the time-travel demo steps through.
public struct InputAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> String {
        ""
    }
}

/// The number shown, grouped in threes (derived from the input).
public struct DisplayAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> String {
        let digits = context.watch(InputAtom())
        guard !digits.isEmpty else { return "0" }
        var groups: [Substring] = []
        var rest = Substring(digits)
        while rest.count > 3 {
            groups.insert(rest.suffix(3), at: 0)
            rest = rest.dropLast(3)
        }
        groups.insert(rest, at: 0)
        return groups.joined(separator: ",")
    }
}

/// How many digits were typed since the last clear.
public struct KeystrokesAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> Int {
        context.watch(InputAtom()).count
    }
}
