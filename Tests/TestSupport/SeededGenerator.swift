/// A deterministic pseudo-random sequence (splitmix64), so that a failing random test can be
/// run again from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The generator's state.
    public var state: UInt64

    /// A generator starting at `state`.
    public init(state: UInt64) {
        self.state = state
    }

    /// A generator starting at `seed`.
    public init(seed: UInt64) {
        self.init(state: seed)
    }

    /// splitmix64.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0).
    public mutating func next(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }
}
