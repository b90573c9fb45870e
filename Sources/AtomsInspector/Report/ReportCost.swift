import AtomsJournalReader

/// The report's `cost` member (docs/REPORT.md): from the journal's timing lines, each
/// transaction's whole time, and each evaluation's atom, self time and whether it was wasted.
/// The page draws the cost lane from the first, and lists the slowest atoms from the second.
struct ReportCost {
    /// The timing lines not yet used, by step.
    private var timings: [Int: TimingLine]
    /// Nanoseconds per transaction, -1 for one without a timing line.
    private var totals: [Int] = []
    /// `[i,atom,selfNs,wasted]` entries, comma-separated.
    private var evaluations: [UInt8] = []

    /// The cost of steps `first...last`, or `nil` for a journal recorded without timing.
    ///
    /// - Throws: ``InspectorError`` for a malformed line, the first the reading meets: the
    ///   timing lines are read with the transactions, as `profile` reads them.
    init?(journal: InspectedJournal, first: Int, last: Int) throws(InspectorError) {
        guard journal.reader.recordsTimings else { return nil }
        timings = [:]
        if first < last {
            // The report names atoms from its own states.
            for transaction in try TimedSteps.read(journal, steps: (first + 1)...last, names: false).transactions {
                timings[transaction.step] = transaction.timing
            }
        }
    }

    /// The bytes so far, for the report's size limit.
    var byteCount: Int { totals.count * 8 + evaluations.count }

    /// Notes transaction `index` (step `seq`), whose record is `record`.
    mutating func append(_ record: TransactionRecord, seq: Int, index: Int) {
        guard let timing = timings.removeValue(forKey: seq) else {
            totals.append(-1)
            return
        }
        totals.append(timing.runtime &+ timing.observers &+ timing.effects &+ timing.subscribers)
        let unchanged = Set((record.values ?? []).lazy.filter { $0.unchanged == true }.map(\.id))
        let tree = EvaluationTree(timing.evaluations)
        for (position, evaluation) in timing.evaluations.enumerated() {
            if !evaluations.isEmpty { evaluations.append(UInt8(ascii: ",")) }
            evaluations.appendArray([index, evaluation.atom, tree.selfTime(of: position), unchanged.contains(evaluation.atom) ? 1 : 0]) { $0.appendDecimal($1) }
        }
    }

    /// Appends `,"cost":{"total":[…],"evals":[…]}`.
    func appendMember(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #","cost":{"total":"#.utf8)
        bytes.appendArray(totals) { $0.appendDecimal($1) }
        bytes.append(contentsOf: #","evals":["#.utf8)
        bytes.append(contentsOf: evaluations)
        bytes.append(contentsOf: "]}".utf8)
    }
}
