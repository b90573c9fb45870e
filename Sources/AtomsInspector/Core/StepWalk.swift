import AtomsJournalReader

extension InspectedJournal {
    /// The one walk over a journal's steps in order: applies each transaction after
    /// `state`'s step through `last` to `state`, and calls `body` with the transaction and the
    /// state right after it.
    ///
    /// `export`, `report`, `AtomsTesting`'s checks and the list of every declaration walk
    /// through here, on the search's engine (`TransactionWalk`, reading every transaction);
    /// `replay-test`'s plan lists envelopes (`JournalReader.forEachTransaction`);
    /// the searches (`find`, `where`, `blame --history`, the step prompt's and the debug
    /// adapter's) walk with ``ExpressionScan``, which skips lines on their bytes, and `log` and
    /// `profile` list from the envelopes' bytes (`JournalReader.forEachTransaction`).
    ///
    /// - Parameters:
    ///   - state: Where to start, read with the same `atoms`; left at `last`.
    ///   - atoms: The atoms whose values to decode: all when `nil`; none for an empty set
    ///     (declarations, liveness and the graph only).
    /// - Throws: ``InspectorError`` for a line that is malformed or does not fit the state
    ///   (with its file and line), or what `body` throws.
    /// - Complexity: One line per step; values only of `atoms`.
    package func walk(
        _ state: inout JournalState, through last: Int, decodingValuesOf atoms: Set<Int>?,
        _ body: (_ record: TransactionRecord, _ state: JournalState) throws(InspectorError) -> Void
    ) throws(InspectorError) {
        guard state.step < last else { return }
        guard memo == nil else {
            // A session's walk: its transactions may be kept already.
            for seq in (state.step + 1)...last {
                let record = try apply(seq, to: &state, decodingValuesOf: atoms)
                try body(record, state)
            }
            return
        }
        // The search's engine, reading every line through one buffer.
        let walk = TransactionWalk(everyTransactionOf: reader, after: state, decodingValuesOf: atoms)
        while walk.nextStep <= last {
            let record: TransactionRecord?
            do {
                record = try walk.advance(&state)
            } catch {
                throw InspectorError(error)
            }
            // Never nil: a walk of every transaction skips none.
            guard let record else { continue }
            try body(record, state)
        }
    }
}
