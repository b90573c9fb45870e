/// When the recorder writes a keyframe: once the transactions since the last one are at
/// least `interval` and weigh at least twice as much as that keyframe did.
///
/// A keyframe costs what the state weighs, so a large state with small changes is not written
/// whole every few hundred steps (keyframes stay at most a third of the journal), and reaching
/// a step still decodes at most about three keyframes' worth of bytes: the keyframe before it
/// and at most twice its size of transactions. Transactions are weighed without their times'
/// digits, so the same transactions place keyframes at the same steps in every recording,
/// however long each one took.
struct KeyframePolicy: Sendable {
    /// The fewest transactions between two keyframes.
    let interval: Int
    private var transactionsSince = 0
    private var bytesSince = 0
    private var keyframeBytes = 0

    init(interval: Int) {
        self.interval = interval
    }

    /// A keyframe of `bytes` was written: the next one is weighed against it.
    mutating func wroteKeyframe(bytes: Int) {
        transactionsSince = 0
        bytesSince = 0
        keyframeBytes = bytes
    }

    /// A transaction line of `bytes` (its time's digits left out) was written.
    mutating func wroteTransaction(bytes: Int) {
        transactionsSince += 1
        bytesSince += bytes
    }

    /// Whether a keyframe is due after the transactions written so far.
    var isDue: Bool {
        transactionsSince >= interval && bytesSince >= 2 * keyframeBytes
    }
}
