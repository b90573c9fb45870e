import AtomsJournalReader
import Dispatch
import Synchronization

/// `atoms-inspect find`: the steps where a condition on atom values becomes true (or holds).
package enum FindCommand {
    /// Which steps to report.
    package enum Mode: String, Sendable, CaseIterable {
        /// Every step where the expression becomes true.
        case becomesTrue
        /// Only the first such step.
        case first
        /// Every step where the expression holds.
        case all
    }

    /// A step found, with the transaction that led to it and the values the expression read.
    package struct Match: Encodable, Equatable, Sendable {
        /// The step.
        package let step: Int
        /// The transaction's cause (`nil` at the journal's first step).
        package let cause: String?
        /// Its write site.
        package let at: String?
        /// The atoms it changed (``TransactionRecord/changed(_:)``).
        package let changed: [String]
        /// The atoms it wrote a value equal to the one they had.
        package let equal: [String]
        /// Each path of the expression as written, and its value at this step.
        package let values: [String: JSONValue]
    }

    /// The result: the expression as parsed and the steps found.
    package struct Result: Encodable, Equatable, Sendable {
        /// The expression, written back.
        package let expression: String
        /// The steps found, in order.
        package let steps: [Match]
    }

    /// Parses `expression` and binds it to the journal's atoms.
    ///
    /// - Throws: ``InspectorError`` (usage) for a malformed expression (naming the column) or
    ///   an atom the journal never declares.
    package static func bind(_ expression: String, in journal: InspectedJournal) throws(InspectorError) -> BoundExpression {
        let parsed = try WhereExpression.parse(expression)
        let declarations = try journal.state(at: journal.reader.lastStep, decodingValuesOf: []).declarations
        do {
            return try BoundExpression(parsed, declarations: declarations, journal: journal.path)
        } catch {
            // An atom released before the last keyframe: its declaration is further back.
            return try BoundExpression(parsed, declarations: journal.declarations(through: journal.reader.lastStep), journal: journal.path)
        }
    }

    /// The steps where `expression` becomes true (or, with `.all`, holds).
    ///
    /// - Complexity: One pass over the transaction envelopes; only the values of the atoms the
    ///   expression names are decoded, and it is evaluated only where they change. `.first`
    ///   stops at the first match.
    ///
    /// - Parameter progress: Told where the scan is every few thousand steps (`find` draws it on
    ///   a terminal); returning `false` stops it, with the matches found so far.
    ///
    /// A journal of at least `halvesFrom` transactions is searched in two halves at once, one
    /// a thread, as `stats` reads: the second half starts from the state at the middle (a
    /// search starts a step early, so whether the expression becomes true at the half's first
    /// step is known), and the first half's matches and errors come first, as one pass would
    /// meet them. `progress` is then told by the first half, scaled to the whole journal (the
    /// halves go at about one pace); when it stops the search, the first half's matches so
    /// far are the result.
    package static func find(
        _ journal: InspectedJournal, where expression: String, mode: Mode = .becomesTrue, progress: SearchProgress? = nil, halvesFrom: Int = FindCommand.halvesFrom
    ) throws(InspectorError) -> Result {
        try journal.readingEveryLine { () throws(InspectorError) in
            let bound = try bind(expression, in: journal)
            let (first, last) = (journal.reader.firstStep, journal.reader.lastStep)
            let matches: [Match]
            if last - first >= halvesFrom {
                matches = try inHalves(journal, bound, mode: mode, first: first, last: last, progress: progress)
            } else {
                var found: [Match] = []
                try forEachMatch(journal, bound, mode: mode, progress: progress) { found.append($0) }
                matches = found
            }
            return Result(expression: bound.expression.description, steps: matches)
        }
    }

    /// Transactions from which ``find(_:where:mode:progress:halvesFrom:)`` searches in two
    /// halves on two threads: below it, a second thread costs more than it saves.
    package static let halvesFrom = 65_536

    /// The matches of steps `first…last`, searched in two halves on two threads; in one pass
    /// when the journal cannot be opened again cheaply and as it was (a file of a format
    /// before 4 is read whole to open; a pipe is read once; a file may have changed since).
    private static func inHalves(
        _ journal: InspectedJournal, _ bound: BoundExpression, mode: Mode, first: Int, last: Int, progress: SearchProgress?
    ) throws(InspectorError) -> [Match] {
        func onePass() throws(InspectorError) -> [Match] {
            var found: [Match] = []
            try forEachMatch(journal, bound, mode: mode, progress: progress) { found.append($0) }
            return found
        }
        // A reader is read by one thread at a time (its segments keep one cursor each): the
        // second half reads the journal opened again.
        guard journal.reader.header.version >= JournalFormat.firstSeekableVersion, let again = journal.openedAgain() else {
            return try onePass()
        }
        let middle = first + (last - first) / 2
        let halves = [(journal, first...middle), (again, (middle + 1)...last)]
        // Once the first half has what one pass would stop at (a match with `.first`, a stop
        // asked by `progress`, an error), the second half's work is not wanted: it stops at
        // its next progress report.
        let stop = HalvesStop()
        let told = HalfProgress { step, _ in
            guard progress?(min(last, first + (step - first) * 2), first...last) ?? true else {
                stop.set()
                return false
            }
            return true
        }
        let results = [HalfResult(), HalfResult()]
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let (reader, steps) = halves[index]
            var found: [Match] = []
            do throws(InspectorError) {
                let ranToEnd: Bool
                if index == 0 {
                    ranToEnd = try forEachMatch(reader, bound, mode: mode, steps: steps, progress: told.progress, ends: results[index].ends) { match in
                        found.append(match)
                        if mode == .first { stop.set() }
                    }
                } else {
                    ranToEnd = try forEachMatch(reader, bound, mode: mode, steps: steps, progress: { _, _ in !stop.isSet }, ends: results[index].ends) { found.append($0) }
                }
                results[index].value = .success((found, ranToEnd))
            } catch {
                if index == 0 { stop.set() }
                results[index].value = .failure(error)
            }
        }
        // One pass meets the first half first: its error, its stop, or with `.first` its
        // match, ends it.
        let (earlier, ranToEnd) = try results[0].get()
        if !ranToEnd || (mode == .first && !earlier.isEmpty) {
            return earlier
        }
        // The second half read a keyframe one pass does not decode (the state at the middle):
        // when it fails, one pass says what is wrong, and where. So it does when the halves
        // do not join as one pass reads on (``ScanEnds/isJoined(to:after:)``).
        guard let later = try? results[1].get().matches, results[0].ends.isJoined(to: results[1].ends, after: middle) else {
            return try onePass()
        }
        return mode == .first ? Array(later.prefix(1)) : earlier + later
    }

    /// Tells the second half to stop: set by the first half's thread, read by the second's.
    private final class HalvesStop: Sendable {
        private let flag = Atomic(false)

        func set() { flag.store(true, ordering: .relaxed) }

        var isSet: Bool { flag.load(ordering: .relaxed) }
    }

    /// The progress the first half tells.
    private final class HalfProgress: @unchecked Sendable {
        // Unchecked: called by the first half's thread only, while the caller's waits.
        let progress: SearchProgress

        init(_ progress: @escaping SearchProgress) {
            self.progress = progress
        }
    }

    /// What one half's search gave: its matches and whether it ran to its end (progress did
    /// not stop it), or its error.
    private final class HalfResult: @unchecked Sendable {
        // Unchecked: written by its half's thread only, and read after `concurrentPerform`
        // returns (which waits for both).
        var value: Swift.Result<(matches: [Match], ranToEnd: Bool), InspectorError>?
        /// Where its walk began and ended.
        let ends = ScanEnds()

        func get() throws(InspectorError) -> (matches: [Match], ranToEnd: Bool) {
            try value!.get()
        }
    }

    /// Calls `body` with each match in step order, as it is found: the search the step
    /// prompt's `w` runs too (``JournalSearch``).
    ///
    /// - Parameters:
    ///   - steps: The steps searched (whether the expression becomes true at the first is
    ///     decided from the step before it); the whole journal when `nil`. Ending short of
    ///     the journal's last step, the search reads on to the line of the step after, as one
    ///     pass would, and fails on damage there.
    ///   - progress: Called every few thousand steps; returning `false` stops the scan.
    ///   - ends: Told where the walk began and ended (for joining two halves).
    /// - Returns: `false` when `progress` stopped it.
    @discardableResult
    package static func forEachMatch(
        _ journal: InspectedJournal, _ bound: BoundExpression, mode: Mode, steps: ClosedRange<Int>? = nil, progress: SearchProgress? = nil, ends: ScanEnds? = nil,
        _ body: (Match) -> Void
    ) throws(InspectorError) -> Bool {
        let reader = journal.reader
        let steps = steps ?? reader.firstStep...reader.lastStep
        let scan = ExpressionScan(journal: journal, expression: bound)
        // A search that ends short of the journal's end (a first half) reads on to the step
        // after its last, as one pass would.
        let readingOn = steps.upperBound < reader.lastStep
        return try scan.steps(from: steps.lowerBound, through: steps.upperBound, holding: mode == .all, limit: mode == .first ? 1 : .max, progress: progress, readingOn: readingOn, ends: ends) { state, record, bound throws(InspectorError) in
            let bound = bound!
            let step = state.step
            // The names the state knows at this step: an atom may have been declared by a
            // step that did not match.
            let names = Naming(declarations: state.declarations)
            var values: [String: JSONValue] = [:]
            for path in bound.expression.paths {
                values[path.description] = bound.value(of: path, in: state.values)
            }
            body(Match(
                step: step, cause: record?.cause, at: record?.at,
                changed: (record?.values ?? []).filter { !$0.isEqualWrite }.map { names.name($0.id) },
                equal: (record?.values ?? []).filter(\.isEqualWrite).map { names.name($0.id) }, values: values
            ))
        }
    }

    /// The text or JSON for `find`; `found` tells whether any step matched (exit 1 otherwise).
    package static func run(_ journal: InspectedJournal, where expression: String, mode: Mode = .becomesTrue, json: Bool = false, style: Style = .plain, progress: SearchProgress? = nil) throws(InspectorError) -> (output: String, found: Bool) {
        let result = try find(journal, where: expression, mode: mode, progress: progress)
        if json {
            return (JSONOutput.encode(result), !result.steps.isEmpty)
        }
        guard !result.steps.isEmpty else {
            let what = mode == .all ? "holds" : "becomes true"
            return (style.dim("no step of \(journal.reader.firstStep)…\(journal.reader.lastStep) where \(result.expression) \(what)"), false)
        }
        var lines: [String] = []
        for match in result.steps {
            lines.append(line(match, style: style))
            lines += match.values.sorted { $0.key < $1.key }.map { "  \($0.key) = \(BlameCommand.summary($0.value))" }
        }
        return (lines.joined(separator: "\n"), true)
    }

    static func line(_ match: Match, style: Style) -> String {
        let step = style.bold("step \(match.step)")
        guard let cause = match.cause else {
            return "\(step)  \(style.dim("(the journal's first step)"))"
        }
        let atoms = match.changed + match.equal.map { $0 + "=" }
        let changed = atoms.isEmpty ? "-" : atoms.joined(separator: ", ")
        return "\(step)  \(style.cyan(cause)) \(changed)\(match.at.map { "  " + style.dim("@ " + $0) } ?? "")"
    }
}
