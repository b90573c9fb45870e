/// Values recorded elsewhere (a journal, a state file) that atoms can start from.
///
/// Install seeds on a store with ``AtomStore/seed(with:)``: when an atom whose identity matches
/// is first used, it computes as usual (so its dependencies are tracked) and then takes the
/// seeded value. ``AtomStore/restoreValues(from:fileID:line:)`` applies seeds to atoms already
/// cached.
public protocol AtomValueSeeds {
    /// The recorded value for an atom, decoded as `type`, or `nil` when there is none (or it
    /// cannot be decoded as that type).
    @MainActor
    func value<Value>(for atom: AtomIdentity, as type: Value.Type) -> Value?
}
