import AtomsJournalReader

/// The timed transactions of a run of steps: each transaction's envelope (cause, write site,
/// the atoms written an equal value) beside its timing line, with names for the atoms.
///
/// What `profile`, `--trace`, the report's cost lane and step's `cost` read.
package struct TimedSteps: Sendable {
    /// One transaction and what it cost.
    package struct Transaction: Sendable {
        /// The step.
        package let step: Int
        /// Why it happened.
        package let cause: String
        /// The write site, when it has one.
        package let at: String?
        /// The atom whose operation started it (0 for none).
        package let origin: Int
        /// The atoms written a value equal to their previous one (`[id,"="]`).
        package let unchanged: Set<Int>
        /// What it cost.
        package let timing: TimingLine

        /// Nanoseconds from its start to the end of its last subscriber.
        package var duration: Int {
            // Wrapping: a damaged timing line's numbers give nonsense, not a trap.
            timing.runtime &+ timing.observers &+ timing.effects &+ timing.subscribers
        }

        /// Its name in tables and traces: cause and write site.
        package var title: String {
            at.map { "\(cause) \($0)" } ?? cause
        }
    }

    /// The steps asked for.
    package let steps: ClosedRange<Int>
    /// The transactions of `steps` that have a timing line, in step order.
    package let transactions: [Transaction]
    /// The atoms declared up to the last step.
    package let declarations: [Int: AtomDeclaration]

    /// The display name of atom `id` (`label`, or `label[key]` for a family member).
    package func name(_ id: Int) -> String {
        declarations[id]?.displayName ?? "#\(id)"
    }

    /// Reads the transactions of `steps` and their timing lines.
    ///
    /// - Throws: ``InspectorError`` with ``ExitStatus/dataError`` (65) when the journal was
    ///   recorded without timing (formats 1 to 4.0); a read error.
    /// - Complexity: One pass over the journal, as `log` lists it (values are never decoded),
    ///   from the start of the segment holding `steps` (timing lines count from the lines
    ///   before them) to the last timing line of `steps`.
    /// - Parameter names: Whether to read the declarations before `steps` (for names):
    ///   the report, which has them, reads only from the start of the segment.
    package static func read(_ journal: InspectedJournal, steps: ClosedRange<Int>, names: Bool = true) throws(InspectorError) -> TimedSteps {
        let reader = journal.reader
        guard reader.recordsTimings else {
            let format = reader.timingFormatText
            throw InspectorError(.dataError, path: journal.path, "the journal was recorded without timing (format \(format); timing lines start with 4.\(JournalFormat.timedMinorVersion)) — record the session again with timing on (the default; the app set JournalRecorder.recordsTiming = false, or the sample ran with --no-timing) to profile it")
        }
        let firstTransaction = max(steps.lowerBound, reader.firstStep + 1)
        var declarations = names ? try journal.declarations(through: firstTransaction - 1) : [:]
        guard firstTransaction <= steps.upperBound else {
            return TimedSteps(steps: steps, transactions: [], declarations: declarations)
        }
        // Transactions listed and waiting for their timing lines, by step (a few at a time: a
        // timing line follows its transaction, after those its subscribers started).
        var waiting: [Int: Waiting] = [:]
        var transactions: [Transaction] = []
        do {
            try reader.forEachTimedTransaction(from: firstTransaction, through: steps.upperBound, { listed in
                switch listed {
                case .envelope(let envelope):
                    var unchanged = Set<Int>()
                    for index in envelope.atoms.indices where envelope.isEqualWrite(at: index) {
                        unchanged.insert(envelope.atoms[index])
                    }
                    let cause = String(decoding: envelope.cause, as: UTF8.self)
                    waiting[envelope.seq] = Waiting(cause: cause, at: envelope.location, origin: envelope.origin, unchanged: unchanged)
                case .record(let record):
                    for atom in record.declare ?? [] { declarations[atom.id] = atom }
                    let unchanged = Set((record.values ?? []).filter { $0.unchanged == true }.map(\.id))
                    waiting[record.seq] = Waiting(cause: record.cause, at: record.at, origin: record.origin ?? 0, unchanged: unchanged)
                }
                return true
            }, timing: { timing in
                if let listed = waiting.removeValue(forKey: timing.seq) {
                    transactions.append(Transaction(step: timing.seq, cause: listed.cause, at: listed.at, origin: listed.origin, unchanged: listed.unchanged, timing: timing))
                }
                return !waiting.isEmpty
            })
        } catch {
            throw InspectorError(error)
        }
        // Timing lines come in the file's order: a transaction's after those of the
        // transactions its subscribers started.
        if !transactions.isEmpty, zip(transactions, transactions.dropFirst()).contains(where: { $0.step > $1.step }) {
            transactions.sort { $0.step < $1.step }
        }
        return TimedSteps(steps: steps, transactions: transactions, declarations: declarations)
    }

    /// A transaction listed, before its timing line.
    private struct Waiting {
        let cause: String
        let at: String?
        let origin: Int
        let unchanged: Set<Int>
    }
}
