#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A timing line of format 4.2: what one transaction cost, in nanoseconds, in a few small
/// integers relative to the transaction (docs/JOURNAL_FORMAT.md, "Timing").
///
/// `{"type":"t","l":[number,"fileID:line",…],"d":back,"p":[runtime,observers],
/// "v":[atom,start,duration,depth,…],"e":[atom,duration,…],"s":[location,duration,…],
/// "n":[atom,count,…],"k":[atom,start,end,committed,…]}`, every member left out when it is
/// empty or zero. The transaction timed is the one `back` transactions before the last
/// transaction line above (0: that one); it began at its own `t`, from which every start
/// here counts. Effects run one after the other from the end of the observers, subscribers
/// from the end of the effects, so only their durations are written. Without `n`, the
/// transaction's origin told as many subscribers as `s` lists. Subscribers are named by a
/// number that an `l` pair declares in this or an earlier timing line of the segment.
package struct CompactTimingLine: Sendable, Equatable {
    /// Location numbers declared by this line.
    package var locations: [Location] = []
    /// How many transactions before the last transaction line above the one timed is.
    package var back = 0
    /// Nanoseconds in the runtime and in transaction observers.
    package var runtime = 0
    package var observers = 0
    /// `[atom, start, duration, depth]` each.
    package var evaluations: [TimingLine.Evaluation] = []
    /// Effect runs, `(atom, duration)`, in order.
    package var effects: [Run] = []
    /// Subscribers told, `(location number, duration)`, in order.
    package var subscribers: [Run] = []
    /// `nil` when the origin told every subscriber listed.
    package var notified: [Run]?
    /// Tasks, their start and end counted from the transaction's start (a start is usually
    /// negative: the task began in an earlier transaction).
    package var tasks: [TimingLine.TaskSpan] = []

    /// A location number and what it names.
    package struct Location: Sendable, Equatable {
        package var number: Int
        package var at: String
        package init(number: Int, at: String) { (self.number, self.at) = (number, at) }
    }

    /// An atom or location number and an integer (a duration, a count).
    package struct Run: Sendable, Equatable {
        package var subject: Int
        package var value: Int
        package init(_ subject: Int, _ value: Int) { (self.subject, self.value) = (subject, value) }
    }

    package init() {}

    static let prefix = Array(#"{"type":"t""#.utf8)

    /// Whether the line `range` of `raw` is a compact timing line, as a recorder writes it.
    static func isLine(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        raw.hasPrefix(prefix, in: range)
            && (raw[range.lowerBound + prefix.count] == UInt8(ascii: ",") || raw[range.lowerBound + prefix.count] == UInt8(ascii: "}"))
    }

    // MARK: Reading

    /// Reads a compact timing line, in any member order; members it does not know are skipped.
    ///
    /// - Throws: A description of what is malformed.
    init(bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(JSONScanner.SyntaxError) {
        var scanner = JSONScanner(bytes, range: range)
        var line = CompactTimingLine()
        try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
            switch key {
            case "type": _ = try scanner.string()
            case "l":
                var pending: Int?
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    if let number = pending {
                        line.locations.append(Location(number: number, at: try scanner.string()))
                        pending = nil
                    } else {
                        pending = try scanner.integer()
                    }
                }
                if pending != nil { throw scanner.error("a location number without its location") }
            case "d": line.back = try scanner.integer()
            case "p":
                let numbers = try scanner.groups(of: 2)
                guard numbers.count == 2 else { throw scanner.error("\"p\" holds two numbers") }
                (line.runtime, line.observers) = (numbers[0], numbers[1])
            case "v":
                let numbers = try scanner.groups(of: 4)
                for index in stride(from: 0, to: numbers.count, by: 4) {
                    line.evaluations.append(TimingLine.Evaluation(atom: numbers[index], start: numbers[index + 1], duration: numbers[index + 2], depth: numbers[index + 3]))
                }
            case "e": line.effects = try scanner.runs()
            case "s": line.subscribers = try scanner.runs()
            case "n": line.notified = try scanner.runs()
            case "k":
                let numbers = try scanner.groups(of: 4)
                for index in stride(from: 0, to: numbers.count, by: 4) {
                    line.tasks.append(TimingLine.TaskSpan(atom: numbers[index], start: numbers[index + 1], end: numbers[index + 2], committed: numbers[index + 3] != 0))
                }
            default:
                _ = try scanner.skipValue()
            }
        }
        guard line.back >= 0 else { throw scanner.error("\"d\" counts back: it cannot be negative") }
        self = line
    }

    /// The line as a timing of transaction `seq`, which began `start` nanoseconds after
    /// recording started and whose origin is atom `origin` (0 for none); subscribers are
    /// named by `locations`.
    package func timing(seq: Int, start: Int, origin: Int, locations: [Int: String]) -> TimingLine {
        var effectsTime = 0
        var subscribersTime = 0
        var line = TimingLine(seq: seq, start: start, runtime: runtime, observers: observers, effects: 0, subscribers: 0)
        line.evaluations = evaluations
        // Wrapping sums, here and in what reads timings: a damaged line's numbers (any
        // signed 64-bit value) give nonsense times, never a trap.
        var mark = runtime &+ observers
        line.effectRuns.reserveCapacity(effects.count)
        line.subscriberRuns.reserveCapacity(subscribers.count)
        for run in effects {
            line.effectRuns.append(TimingLine.Run(atom: run.subject, at: "", start: mark, duration: run.value))
            mark &+= run.value
            effectsTime &+= run.value
        }
        for run in subscribers {
            line.subscriberRuns.append(TimingLine.Run(atom: 0, at: locations[run.subject] ?? "", start: mark, duration: run.value))
            mark &+= run.value
            subscribersTime &+= run.value
        }
        line.effects = effectsTime
        line.subscribers = subscribersTime
        if let notified {
            line.notified = notified.map { ($0.subject, $0.value) }
        } else if !subscribers.isEmpty, origin != 0 {
            line.notified = [(origin, subscribers.count)]
        }
        line.tasks = tasks.map { task in
            TimingLine.TaskSpan(atom: task.atom, start: max(0, start &+ task.start), end: max(0, start &+ task.end), committed: task.committed)
        }
        return line
    }
}

extension JSONScanner {
    /// Reads a flat array of integers whose length is a multiple of `size`.
    fileprivate mutating func groups(of size: Int) throws(SyntaxError) -> [Int] {
        var numbers: [Int] = []
        try forEachElement { scanner throws(SyntaxError) in
            numbers.append(try scanner.integer())
        }
        guard numbers.count % size == 0 else {
            throw error("expected groups of \(size) numbers, found \(numbers.count) numbers")
        }
        return numbers
    }

    /// Reads `[a,b,a,b,…]` as pairs.
    fileprivate mutating func runs() throws(SyntaxError) -> [CompactTimingLine.Run] {
        let numbers = try groups(of: 2)
        return stride(from: 0, to: numbers.count, by: 2).map { CompactTimingLine.Run(numbers[$0], numbers[$0 + 1]) }
    }
}
