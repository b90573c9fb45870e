import AtomsJournalReader

/// Walks a journal's steps evaluating a ``BoundExpression``, decoding only the values of the
/// atoms it reads.
struct ExpressionScan {
    let journal: InspectedJournal
    let expression: BoundExpression

    /// Calls `found` with each step in `from...through` where the expression becomes true (it
    /// holds there and not at the step before; at the journal's first step, where it holds)
    /// with the state there, the transaction that led to it (`nil` at the journal's first
    /// step) and the expression with every number of its atoms learned so far, in order. With
    /// `holding`, every step where it holds.
    ///
    /// An atom released and seen again after a keyframe has a new number: the scan learns it
    /// from the transaction that declares it, and reads that transaction's value of it.
    ///
    /// - Parameter limit: Stop after this many steps.
    /// - Complexity: One transaction envelope per step; the expression is evaluated only at
    ///   steps that write, create or release one of its atoms.
    func steps(from: Int, through: Int, holding: Bool = false, limit: Int = .max, _ found: (_ state: JournalState, _ record: TransactionRecord?, _ expression: BoundExpression) throws(InspectorError) -> Void) throws(InspectorError) {
        guard from <= through, limit > 0 else { return }
        var expression = self.expression
        // Start a step early so that whether it becomes true at `from` is known.
        let start = from > journal.reader.firstStep ? from - 1 : from
        var state = try journal.state(at: start, decodingValuesOf: expression.atomIDs)
        if expression.learn(state.declarations.values) {
            state = try journal.state(at: start, decodingValuesOf: expression.atomIDs)
        }
        var atoms = expression.atomIDs
        var holds = expression.holds(in: state.values)
        var count = 0
        if start == from, holds {
            try found(state, nil, expression)
            count += 1
        }
        guard start < through else { return }
        for seq in (start + 1)...through where count < limit {
            let record = try journal.apply(seq, to: &state, decodingValuesOf: atoms)
            if let declared = record.declare {
                let known = atoms
                if expression.learn(declared) {
                    atoms = expression.atomIDs
                    try takeValues(of: atoms.subtracting(known), at: seq, into: &state)
                }
            }
            let before = holds
            if Self.touches(record, atoms) {
                holds = expression.holds(in: state.values)
            }
            if holds && (holding || !before) {
                try found(state, record, expression)
                count += 1
            }
        }
    }

    /// Sets the values that transaction `seq` gives atoms it declares, which `state` has
    /// applied without decoding them. A declared atom is new to any reader, so its value there
    /// is whole.
    private func takeValues(of learned: Set<Int>, at seq: Int, into state: inout JournalState) throws(InspectorError) {
        var values = try journal.transaction(seq, decodingValuesOf: learned)
        values.values = values.values?.filter { learned.contains($0.id) }
        (values.declare, values.created, values.released) = (nil, nil, nil)
        (values.edgesAdded, values.edgesRemoved, values.subsAdded, values.subsRemoved) = (nil, nil, nil, nil)
        do {
            try state.apply(values)
        } catch {
            throw InspectorError(.dataError, path: journal.path, "transaction \(seq) \(error.message)")
        }
    }

    /// Whether a transaction writes, creates or releases one of `atoms`.
    static func touches(_ record: TransactionRecord, _ atoms: Set<Int>) -> Bool {
        record.values?.contains { atoms.contains($0.id) } == true
            || record.created?.contains(where: atoms.contains) == true
            || record.released?.contains(where: atoms.contains) == true
    }
}
