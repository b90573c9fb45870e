import AtomsJournalReader

extension TransactionLine {
    /// Appends the entry for a change found by comparing a value with the previous one:
    /// `[id,"="]` when equal, `[id,"d",delta]` for a delta. Returns `false`, appending nothing,
    /// for a value to be written whole. Every path that compares a value (typed slots, values
    /// kept as their encoding) writes its entry here.
    static func appendEntry(for change: ValueDiffer.Change, id: Int, to output: inout [UInt8]) -> Bool {
        switch change {
        case .unchanged: appendUnchanged(id: id, to: &output)
        case .delta(let delta): appendDelta(id: id, delta: delta, to: &output)
        case .replaced: return false
        }
        return true
    }
}
