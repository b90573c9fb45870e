/// A timing line of format 4.3: what a ``CompactTimingLine`` says, packed into a JSON string of
/// numbers, one character per digit (docs/JOURNAL_FORMAT.md, "Timing").
///
/// A line is `"…"`: its numbers, each written in base 45 with its most significant digit
/// first. A digit that ends its number is a byte from `#` to `O` (0x23–0x4F, value byte −
/// 0x23); a digit that more digits follow is a byte from `P` to `}` (0x50–0x7D without `\`,
/// value byte − 0x50, one less above `\`). Neither needs escaping in JSON.
///
/// The numbers: a form (`1`: the shape follows; `2`: tasks follow; `4 × k`: the line has the
/// shape of the segment's timing lines' `k`-th most recent shape, 0 the last line's), then the
/// **shape** when it follows: `back`, the evaluations' count and `atom, depth` each, the effects' count and atoms, the subscribers' count and
/// their location numbers (the journal's `loc` numbers), and `0` when the origin told every
/// subscriber listed or the count of `notified` plus one and `atom, count` each. Then the
/// times, in nanoseconds: `runtime, observers`, `start, duration` of each evaluation, the
/// duration of each effect and of each subscriber. Then, when the form says so, the count of
/// tasks and `atom, start, end, committed` each, `start` and `end` zigzag-coded (`2n` for
/// `n ≥ 0`, `−2n − 1` for `n < 0`).
///
/// A counter's step, whose shape repeats, packs into about a dozen characters; a session
/// whose transactions take turns among a few shapes names the one it has.
package enum PackedTimingLine {
    /// The shapes of a segment's timing lines, most recent first (a line names one of them,
    /// or brings a new one), as many as ``kept``.
    package struct RecentShapes: Sendable, Equatable {
        package static let kept = 8
        var shapes: [Shape] = []

        package init() {}

        /// Makes `shape`, new, the most recent.
        mutating func use(_ shape: Shape) {
            if shapes.count == Self.kept {
                shapes.removeLast()
            }
            shapes.insert(shape, at: 0)
        }

        /// Makes the shape at `index` the most recent. The ones before it move back one place,
        /// swapped rather than copied (a shape holds four arrays); a line with the last line's
        /// shape, the usual case, moves nothing.
        mutating func use(at index: Int) {
            var position = index
            while position > 0 {
                shapes.swapAt(position, position - 1)
                position -= 1
            }
        }
    }

    /// What a timing line may leave to the one before it.
    package struct Shape: Sendable, Equatable {
        var back = 0
        /// `atom, depth` of each evaluation.
        var evaluations: [Int] = []
        var effects: [Int] = []
        var subscribers: [Int] = []
        /// `atom, count` each; `nil`: the origin told every subscriber listed.
        var notified: [Int]?

        init() {}

        init(of line: CompactTimingLine) {
            back = line.back
            evaluations.reserveCapacity(2 * line.evaluations.count)
            for evaluation in line.evaluations {
                evaluations.append(evaluation.atom)
                evaluations.append(evaluation.depth)
            }
            effects = line.effects.map(\.subject)
            subscribers = line.subscribers.map(\.subject)
            notified = line.notified.map { runs in runs.flatMap { [$0.subject, $0.value] } }
        }

        /// Whether `line` has this shape (compared without building one).
        func fits(_ line: CompactTimingLine) -> Bool {
            guard back == line.back, evaluations.count == 2 * line.evaluations.count,
                effects.count == line.effects.count, subscribers.count == line.subscribers.count
            else { return false }
            for (index, evaluation) in line.evaluations.enumerated()
            where evaluations[2 * index] != evaluation.atom || evaluations[2 * index + 1] != evaluation.depth {
                return false
            }
            for (index, run) in line.effects.enumerated() where effects[index] != run.subject { return false }
            for (index, run) in line.subscribers.enumerated() where subscribers[index] != run.subject { return false }
            switch (notified, line.notified) {
            case (nil, nil): return true
            case (let shape?, let runs?):
                guard shape.count == 2 * runs.count else { return false }
                for (index, run) in runs.enumerated() where shape[2 * index] != run.subject || shape[2 * index + 1] != run.value {
                    return false
                }
                return true
            default: return false
            }
        }
    }

    /// The form's bits, and what the rest counts in.
    private static let hasShape = 1
    private static let hasTasks = 2
    private static let recentUnit = 4
    /// Digits of a number's end (`#`…`O`) and digits more follow (`P`…`}` without `\`).
    private static let base = 45
    private static let lastDigit = UInt8(ascii: "#")
    private static let moreDigit = UInt8(ascii: "P")
    private static let backslash = UInt8(ascii: "\\")

    // MARK: Writing

    /// Appends `line` (whose subscribers are named by `loc` numbers; its `locations` are not
    /// written) with its newline; `recent` are the segment's timing lines' shapes, and this
    /// line's becomes the most recent.
    package static func append(_ line: CompactTimingLine, shapes recent: inout RecentShapes, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let known = recent.shapes.firstIndex { $0.fits(line) }
        let tasks = line.tasks.isEmpty ? 0 : hasTasks
        appendNumber(known.map { $0 * recentUnit | tasks } ?? hasShape | tasks, to: &output)
        if let known {
            recent.use(at: known)
        } else {
            appendNumber(line.back, to: &output)
            appendNumber(line.evaluations.count, to: &output)
            for evaluation in line.evaluations {
                appendNumber(evaluation.atom, to: &output)
                appendNumber(evaluation.depth, to: &output)
            }
            appendNumber(line.effects.count, to: &output)
            for run in line.effects { appendNumber(run.subject, to: &output) }
            appendNumber(line.subscribers.count, to: &output)
            for run in line.subscribers { appendNumber(run.subject, to: &output) }
            if let notified = line.notified {
                appendNumber(notified.count + 1, to: &output)
                for run in notified {
                    appendNumber(run.subject, to: &output)
                    appendNumber(run.value, to: &output)
                }
            } else {
                appendNumber(0, to: &output)
            }
            recent.use(Shape(of: line))
        }
        appendNumber(line.runtime, to: &output)
        appendNumber(line.observers, to: &output)
        for evaluation in line.evaluations {
            appendNumber(evaluation.start, to: &output)
            appendNumber(evaluation.duration, to: &output)
        }
        for run in line.effects { appendNumber(run.value, to: &output) }
        for run in line.subscribers { appendNumber(run.value, to: &output) }
        if !line.tasks.isEmpty {
            appendNumber(line.tasks.count, to: &output)
            for task in line.tasks {
                appendNumber(task.atom, to: &output)
                appendNumber(zigzag(task.start), to: &output)
                appendNumber(zigzag(task.end), to: &output)
                appendNumber(task.committed ? 1 : 0, to: &output)
            }
        }
        output.append(contentsOf: [UInt8(ascii: "\""), 0x0A])
    }

    /// Appends a number's digits (a negative one, which a recorder never has, as 0).
    static func appendNumber(_ value: Int, to output: inout [UInt8]) {
        var value = UInt(max(value, 0))
        let base = UInt(Self.base)
        if value >= base {
            // The largest power of the base not above the value (no overflow: it is at most
            // the value), then a digit for each power down to the base.
            var power = base
            while value / power >= base { power &*= base }
            while power > 1 {
                let digit = UInt8(truncatingIfNeeded: value / power)
                value %= power
                let byte = moreDigit &+ digit
                output.append(byte >= backslash ? byte &+ 1 : byte)
                power /= base
            }
        }
        output.append(lastDigit &+ UInt8(truncatingIfNeeded: value))
    }

    private static func zigzag(_ value: Int) -> Int {
        value >= 0 ? value << 1 : ((-(value + 1)) << 1) | 1
    }

    private static func unzigzag(_ value: Int) -> Int {
        value & 1 == 0 ? value >> 1 : -(value >> 1) - 1
    }

    // MARK: Reading

    /// What is wrong with a packed timing line, and where.
    package struct Problem: Error, CustomStringConvertible {
        /// The offset in the line (0-based).
        let offset: Int
        let message: String

        package var description: String {
            "packed timing line at byte \(offset + 1): \(message)"
        }
    }

    /// Whether the line `range` of `raw` is a packed timing line (it starts with `"`).
    static func isLine(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        raw[range.lowerBound] == UInt8(ascii: "\"")
    }

    /// Checks that the line `range` of `raw` is a string of digits, each number ended.
    ///
    /// - Throws: ``Problem`` naming the first byte that is not a digit, or the end of a line
    ///   that is not a whole string.
    static func checkDigits(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) throws(Problem) {
        guard range.count >= 2, raw[range.upperBound - 1] == UInt8(ascii: "\"") else {
            throw Problem(offset: range.count, message: "the line ends before its closing `\"`")
        }
        var digits = Digits(raw: raw, position: range.lowerBound + 1, end: range.upperBound - 1, start: range.lowerBound)
        while digits.position < digits.end { _ = try digits.next() }
    }

    /// Reads the line `range` of `raw`; `recent` are the segment's timing lines' shapes
    /// before it, and this line's becomes the most recent. Subscribers are named by `loc`
    /// numbers.
    ///
    /// - Throws: ``Problem`` for a line that is not a string of digits, a number too large,
    ///   a line that names a shape the lines before did not have, or numbers too few or too
    ///   many.
    package static func read(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, shapes recent: inout RecentShapes) throws(Problem) -> CompactTimingLine {
        guard range.count >= 2, raw[range.lowerBound] == UInt8(ascii: "\""), raw[range.upperBound - 1] == UInt8(ascii: "\"") else {
            throw Problem(offset: 0, message: "a packed timing line is a string: `\"` at its start and end")
        }
        var digits = Digits(raw: raw, position: range.lowerBound + 1, end: range.upperBound - 1, start: range.lowerBound)
        let form = try digits.next()
        let shape: Shape
        if form & hasShape != 0 {
            guard form < recentUnit else { throw digits.problem("form \(form) brings a shape and names one") }
            var new = Shape()
            new.back = try digits.next()
            new.evaluations = try digits.list(groupsOf: 2)
            new.effects = try digits.list(groupsOf: 1)
            new.subscribers = try digits.list(groupsOf: 1)
            let notified = try digits.next()
            if notified > 0 {
                new.notified = try digits.numbers(2 * (notified - 1))
            }
            shape = new
            recent.use(new)
        } else {
            let index = form / recentUnit
            guard index < recent.shapes.count else {
                throw digits.problem(recent.shapes.isEmpty
                    ? "the line has the shape of a timing line before it, and no timing line of its segment came before it"
                    : "the line has the shape \(index) back, and its segment's timing lines had \(recent.shapes.count)")
            }
            recent.use(at: index)
            shape = recent.shapes[0]
        }
        var line = CompactTimingLine()
        line.back = shape.back
        line.runtime = try digits.next()
        line.observers = try digits.next()
        line.evaluations.reserveCapacity(shape.evaluations.count / 2)
        for index in stride(from: 0, to: shape.evaluations.count, by: 2) {
            let start = try digits.next()
            line.evaluations.append(TimingLine.Evaluation(atom: shape.evaluations[index], start: start, duration: try digits.next(), depth: shape.evaluations[index + 1]))
        }
        line.effects.reserveCapacity(shape.effects.count)
        for atom in shape.effects { line.effects.append(.init(atom, try digits.next())) }
        line.subscribers.reserveCapacity(shape.subscribers.count)
        for location in shape.subscribers { line.subscribers.append(.init(location, try digits.next())) }
        line.notified = shape.notified.map { numbers in
            stride(from: 0, to: numbers.count, by: 2).map { CompactTimingLine.Run(numbers[$0], numbers[$0 + 1]) }
        }
        if form & hasTasks != 0 {
            let numbers = try digits.list(groupsOf: 4)
            for index in stride(from: 0, to: numbers.count, by: 4) {
                line.tasks.append(TimingLine.TaskSpan(atom: numbers[index], start: unzigzag(numbers[index + 1]), end: unzigzag(numbers[index + 2]), committed: numbers[index + 3] != 0))
            }
        }
        guard digits.position == digits.end else {
            throw digits.problem("more numbers than its shape has times for")
        }
        return line
    }

    /// The digits of a line, read number by number.
    private struct Digits {
        let raw: UnsafeRawBufferPointer
        var position: Int
        let end: Int
        /// The line's first byte, from which problems count.
        let start: Int

        func problem(_ message: String) -> Problem {
            Problem(offset: position - start, message: message)
        }

        mutating func next() throws(Problem) -> Int {
            let begin = position
            var value = 0
            while position < end {
                let byte = raw[position]
                let digit: Int
                let last: Bool
                switch byte {
                case lastDigit..<moreDigit:
                    (digit, last) = (Int(byte - lastDigit), true)
                case moreDigit..<backslash:
                    (digit, last) = (Int(byte - moreDigit), false)
                case backslash + 1...UInt8(ascii: "}"):
                    (digit, last) = (Int(byte - moreDigit - 1), false)
                default:
                    throw problem("byte 0x\(String(byte, radix: 16)) is not a digit (`#` to `}`, without `\\`)")
                }
                let (times, overflow) = value.multipliedReportingOverflow(by: base)
                let (sum, carry) = times.addingReportingOverflow(digit)
                guard !overflow, !carry else { throw problem("a number too large") }
                value = sum
                position += 1
                if last { return value }
            }
            throw problem(position == begin ? "a number is missing: the line ends before its shape's times" : "the line ends inside a number")
        }

        /// `count` numbers.
        mutating func numbers(_ count: Int) throws(Problem) -> [Int] {
            // Each number takes a digit at least: a count larger than what is left is wrong,
            // and is not allocated.
            guard count <= end - position else { throw problem("\(count) numbers are more than the line holds") }
            var numbers: [Int] = []
            numbers.reserveCapacity(count)
            for _ in 0..<count { numbers.append(try next()) }
            return numbers
        }

        /// A count, then as many groups of `size` numbers.
        mutating func list(groupsOf size: Int) throws(Problem) -> [Int] {
            let count = try next()
            guard count <= (end - position) / size else { throw problem("a count of \(count) is more than the line holds") }
            return try numbers(count * size)
        }
    }
}
