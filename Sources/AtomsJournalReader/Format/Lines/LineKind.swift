/// What a journal line is, and its step: all a reader needs to find its way through a
/// journal. Readers switch over this type; ``LineScanner`` is what produces it.
enum LineKind: Equatable {
    /// A transaction line (an array from format 2 on, an object of type `tx` in format 1).
    case transaction(seq: Int)
    /// A keyframe: the state after transaction `seq`.
    case keyframe(seq: Int)
    /// A location line (format 2 and later).
    case location
    /// The end line (format 4), after the last step `seq`.
    case end(seq: Int)
    /// A timing line (format 4.1 and later), known by its prefix and not parsed: skipped by
    /// every reader but the readers of timing (``JournalReader/timings(of:)``).
    case timing
    /// An object line of a type this reader does not know: from format 4 on, skipped.
    case unknown

    /// The step of a transaction, keyframe or end line.
    var step: Int? {
        switch self {
        case .transaction(let seq), .keyframe(let seq), .end(let seq): seq
        case .location, .timing, .unknown: nil
        }
    }
}
