import AtomsJournal

/// Walks a journal's steps evaluating a ``BoundExpression``, decoding only the values of the
/// atoms it reads.
struct ExpressionScan {
    let journal: InspectedJournal
    let expression: BoundExpression

    /// Calls `found` with each step in `from...through` where the expression becomes true (it
    /// holds there and not at the step before; at the journal's first step, where it holds)
    /// with the state there and the transaction that led to it (`nil` at the journal's first
    /// step), in order. With `holding`, every step where it holds.
    ///
    /// - Parameter limit: Stop after this many steps.
    /// - Complexity: One transaction envelope per step; the expression is evaluated only at
    ///   steps that write, create or release one of its atoms.
    func steps(from: Int, through: Int, holding: Bool = false, limit: Int = .max, _ found: (_ state: JournalState, _ record: TransactionRecord?) throws(InspectorError) -> Void) throws(InspectorError) {
        guard from <= through, limit > 0 else { return }
        let atoms = expression.atomIDs
        // Start a step early so that whether it becomes true at `from` is known.
        let start = from > journal.reader.firstStep ? from - 1 : from
        var state = try journal.state(at: start, decodingValuesOf: atoms)
        var holds = expression.holds(in: state.values)
        var count = 0
        if start == from, holds {
            try found(state, nil)
            count += 1
        }
        guard start < through else { return }
        for seq in (start + 1)...through where count < limit {
            let record = try journal.apply(seq, to: &state, decodingValuesOf: atoms)
            let before = holds
            if Self.touches(record, atoms) {
                holds = expression.holds(in: state.values)
            }
            if holds && (holding || !before) {
                try found(state, record)
                count += 1
            }
        }
    }

    /// Whether a transaction writes, creates or releases one of `atoms`.
    static func touches(_ record: TransactionRecord, _ atoms: Set<Int>) -> Bool {
        record.values?.contains { atoms.contains($0.id) } == true
            || record.created?.contains(where: atoms.contains) == true
            || record.released?.contains(where: atoms.contains) == true
    }
}
