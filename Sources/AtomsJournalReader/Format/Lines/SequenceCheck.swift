/// The order rules of a journal's lines, checked in one place for every reader that reads
/// lines in order (opening an older journal, reading on, following, summing up):
///
/// - the first step line is a keyframe (unless the check starts in the middle of a file);
/// - transactions are numbered one more than the step before them, without gaps or repeats;
/// - a keyframe holds the step of the transaction just before it;
/// - the end line names the last step, and nothing but the file's end follows it.
struct SequenceCheck {
    /// The step a transaction line must have next; `nil` before the first step line.
    private(set) var expected: Int?
    /// Whether the end line was read.
    private(set) var isEnded = false
    /// Whether the lines checked may start with a transaction (a part of a file read on its
    /// own), which then sets the numbering.
    private let startsAnywhere: Bool

    /// A check from the start of a file; `startsAnywhere` for a part of one.
    init(startsAnywhere: Bool = false) {
        self.startsAnywhere = startsAnywhere
    }

    /// A check that goes on after step `step`.
    init(after step: Int) {
        expected = step + 1
        startsAnywhere = false
    }

    /// What is wrong with a line's place in the sequence.
    enum Violation: Error, Equatable {
        case transactionBeforeKeyframe
        case duplicate(seq: Int)
        case missing(expected: Int, found: Int)
        case keyframeOutOfPlace(step: Int, after: Int)
        case afterEnd
        case endMismatch(named: Int, last: Int)

        /// The error, for line `line` of `path`.
        func error(path: String, line: Int) -> JournalError {
            switch self {
            case .transactionBeforeKeyframe:
                .malformedLine(path: path, line: line, reason: "transaction before the first keyframe")
            case .duplicate(let seq):
                .duplicateSequence(path: path, line: line, seq: seq)
            case .missing(let expected, let found):
                .missingSequence(path: path, line: line, expected: expected, found: found)
            case .keyframeOutOfPlace(let step, let after):
                .malformedLine(path: path, line: line, reason: "keyframe for step \(step) follows transaction \(after)")
            case .afterEnd:
                .malformedLine(path: path, line: line, reason: "a line follows the end of the journal")
            case .endMismatch(let named, let last):
                .malformedLine(path: path, line: line, reason: "the end line names step \(named), but the last step is \(last)")
            }
        }
    }

    /// Takes the next line.
    ///
    /// - Throws: The rule the line breaks.
    @inline(__always)
    mutating func take(_ kind: LineKind) throws(Violation) {
        guard !isEnded else { throw .afterEnd }
        switch kind {
        case .transaction(let seq):
            guard let expected else {
                guard startsAnywhere else { throw .transactionBeforeKeyframe }
                self.expected = seq + 1
                return
            }
            if seq < expected { throw .duplicate(seq: seq) }
            if seq > expected { throw .missing(expected: expected, found: seq) }
            self.expected = seq + 1
        case .keyframe(let seq):
            if let expected, seq != expected - 1 {
                throw .keyframeOutOfPlace(step: seq, after: expected - 1)
            }
            expected = seq + 1
        case .end(let seq):
            let last = (expected ?? seq + 1) - 1
            guard seq == last else { throw .endMismatch(named: seq, last: last) }
            isEnded = true
        case .location, .timing, .unknown:
            break
        }
    }

    /// The last step taken (`nil` before any).
    var lastStep: Int? {
        expected.map { $0 - 1 }
    }
}
