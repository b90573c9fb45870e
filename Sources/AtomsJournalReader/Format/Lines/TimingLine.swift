#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A timing line (format 4.1): what one transaction cost, on a monotonic clock, in
/// nanoseconds.
///
/// `{"type":"timing","seq":N,"start":…,"runtime":…,"observers":…,"effects":…,"subscribers":…,
/// "evals":[[atom,start,duration,depth],…],"effectRuns":[[atom,start,duration],…],
/// "subscriberRuns":[["fileID:line",start,duration],…],"notified":[[atom,count],…],
/// "tasks":[[atom,start,end,"result"|"dropped"],…]}`; empty lists are left out. Starts inside
/// the transaction are counted from its `start`; a task's `start` and `end`, and the
/// transaction's `start`, from the start of recording. docs/JOURNAL_FORMAT.md specifies it.
package struct TimingLine: Sendable, Equatable {
    /// One run of an atom's computation.
    package struct Evaluation: Sendable, Equatable {
        /// The atom's number.
        package var atom: Int
        /// Nanoseconds from the transaction's start.
        package var start: Int
        /// How long it ran, in nanoseconds (the evaluations nested in it included).
        package var duration: Int
        /// How many evaluations enclose it.
        package var depth: Int

        /// An evaluation, as the recorder notes one.
        package init(atom: Int, start: Int, duration: Int, depth: Int) {
            (self.atom, self.start, self.duration, self.depth) = (atom, start, duration, depth)
        }
    }

    /// An effect's event (`atom`) or a subscriber's notification (`at`).
    package struct Run: Sendable, Equatable {
        /// The atom whose effect ran, 0 for a subscriber.
        package var atom: Int
        /// Where the subscriber was created, empty for an effect.
        package var at: String
        /// Nanoseconds from the transaction's start.
        package var start: Int
        /// Nanoseconds.
        package var duration: Int

        /// A run, as the recorder notes one.
        package init(atom: Int, at: String, start: Int, duration: Int) {
            (self.atom, self.at, self.start, self.duration) = (atom, at, start, duration)
        }
    }

    /// An asynchronous atom's task, from the computation that started it to its result.
    package struct TaskSpan: Sendable, Equatable {
        /// The atom's number.
        package var atom: Int
        /// Nanoseconds from the start of recording.
        package var start: Int
        package var end: Int
        /// Whether its result was committed (in this transaction); otherwise it was dropped.
        package var committed: Bool

        /// A task, as the recorder notes one.
        package init(atom: Int, start: Int, end: Int, committed: Bool) {
            (self.atom, self.start, self.end, self.committed) = (atom, start, end, committed)
        }
    }

    /// The transaction timed.
    package var seq: Int
    /// Nanoseconds from the start of recording to the transaction's start.
    package var start: Int
    /// Nanoseconds in the runtime (evaluations, propagation, release), in transaction
    /// observers (the recorder among them), in effects and in subscribers.
    package var runtime: Int
    package var observers: Int
    package var effects: Int
    package var subscribers: Int
    package var evaluations: [Evaluation] = []
    package var effectRuns: [Run] = []
    package var subscriberRuns: [Run] = []
    /// For each changed atom with subscribers, how many its change told.
    package var notified: [(atom: Int, count: Int)] = []
    package var tasks: [TaskSpan] = []

    /// Creates a line's contents.
    package init(seq: Int, start: Int, runtime: Int, observers: Int, effects: Int, subscribers: Int) {
        self.seq = seq
        self.start = start
        self.runtime = runtime
        self.observers = observers
        self.effects = effects
        self.subscribers = subscribers
    }

    /// The line's `type`.
    static let type = "timing"
    static let prefix = Array(#"{"type":"timing","#.utf8)

    package static func == (lhs: TimingLine, rhs: TimingLine) -> Bool {
        lhs.seq == rhs.seq && lhs.start == rhs.start && lhs.runtime == rhs.runtime && lhs.observers == rhs.observers
            && lhs.effects == rhs.effects && lhs.subscribers == rhs.subscribers && lhs.evaluations == rhs.evaluations
            && lhs.effectRuns == rhs.effectRuns && lhs.subscriberRuns == rhs.subscriberRuns
            && lhs.notified.elementsEqual(rhs.notified, by: { $0 == $1 }) && lhs.tasks == rhs.tasks
    }

    /// Whether the line `range` of `raw` is a timing line, as a recorder writes it (`type`
    /// first).
    static func isTimingLine(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        raw.hasPrefix(prefix, in: range)
    }

    // MARK: Reading

    /// Reads a timing line, in any member order; members it does not know are skipped.
    ///
    /// - Throws: A description of what is malformed.
    init(bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(JSONScanner.SyntaxError) {
        var scanner = JSONScanner(bytes, range: range)
        var line = TimingLine(seq: -1, start: 0, runtime: 0, observers: 0, effects: 0, subscribers: 0)
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            switch key {
            case "seq": line.seq = try scanner.integer()
            case "start": line.start = try scanner.integer()
            case "runtime": line.runtime = try scanner.integer()
            case "observers": line.observers = try scanner.integer()
            case "effects": line.effects = try scanner.integer()
            case "subscribers": line.subscribers = try scanner.integer()
            case "evals":
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    let numbers = try scanner.integers(count: 4)
                    line.evaluations.append(Evaluation(atom: numbers[0], start: numbers[1], duration: numbers[2], depth: numbers[3]))
                }
            case "effectRuns":
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    let numbers = try scanner.integers(count: 3)
                    line.effectRuns.append(Run(atom: numbers[0], at: "", start: numbers[1], duration: numbers[2]))
                }
            case "subscriberRuns":
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    try scanner.expect(UInt8(ascii: "["))
                    let at = try scanner.string()
                    try scanner.expect(UInt8(ascii: ","))
                    let start = try scanner.integer()
                    try scanner.expect(UInt8(ascii: ","))
                    let duration = try scanner.integer()
                    try scanner.expect(UInt8(ascii: "]"))
                    line.subscriberRuns.append(Run(atom: 0, at: at, start: start, duration: duration))
                }
            case "notified":
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    let numbers = try scanner.integers(count: 2)
                    line.notified.append((numbers[0], numbers[1]))
                }
            case "tasks":
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    try scanner.expect(UInt8(ascii: "["))
                    var numbers: [Int] = []
                    for _ in 0..<3 {
                        numbers.append(try scanner.integer())
                        try scanner.expect(UInt8(ascii: ","))
                    }
                    let outcome = try scanner.string()
                    try scanner.expect(UInt8(ascii: "]"))
                    line.tasks.append(TaskSpan(atom: numbers[0], start: numbers[1], end: numbers[2], committed: outcome == "result"))
                }
            default:
                _ = try scanner.skipValue()
            }
        }
        guard line.seq >= 0 else {
            throw scanner.error("a timing line has no \"seq\"")
        }
        self = line
    }
}

extension JSONScanner {
    /// Reads an array of exactly `count` integers.
    fileprivate mutating func integers(count: Int) throws(SyntaxError) -> [Int] {
        var numbers: [Int] = []
        numbers.reserveCapacity(count)
        try forEachElement { scanner throws(SyntaxError) in
            numbers.append(try scanner.integer())
        }
        guard numbers.count == count else {
            throw error("expected \(count) numbers, found \(numbers.count)")
        }
        return numbers
    }
}
