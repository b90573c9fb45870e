/// How long a shrink may search: it stops at whichever limit comes first and returns the
/// smallest session found so far, saying it stopped early.
public struct ShrinkBudget: Sendable, Equatable {
    /// The most trials (replays of a part of the session) it runs.
    public var trials: Int
    /// The most seconds it runs, counted from its start.
    public var seconds: Double

    /// A budget of `trials` trials or `seconds` seconds.
    public init(trials: Int, seconds: Double) {
        self.trials = trials
        self.seconds = seconds
    }

    /// 5,000 trials or 60 seconds: enough to make a 1,000-write session 1-minimal and shrink
    /// its values in a few seconds where a bug needs a handful of writes.
    public static let `default` = ShrinkBudget(trials: 5_000, seconds: 60)
}
