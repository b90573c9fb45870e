import AtomsJournalReader
import Synchronization

/// Decoded states and transactions of one journal, and the differences between two steps,
/// kept so that a `step` session (or a fuzzer's many sessions over one journal) works each
/// out once however often it comes back to a step. Bounded: once `capacity` of a kind are
/// kept, that kind starts over.
///
/// Each is a function of the journal's bytes, which a reader never rereads after opening:
/// what is kept never goes stale. Errors are not kept.
package final class JournalMemo: Sendable {
    /// A step (or sequence number) and the atoms whose values were decoded.
    private struct Key: Hashable {
        var step: Int
        var atoms: Set<Int>?
    }

    /// Two steps and the pattern of the atoms compared.
    private struct StepPair: Hashable {
        var from: Int
        var to: Int
        var atoms: String?
    }

    private struct Kept {
        var states: [Key: JournalState] = [:]
        var transactions: [Key: TransactionRecord] = [:]
        var differences: [StepPair: DiffCommand.Difference] = [:]
    }

    private let kept = Mutex(Kept())
    private let capacity: Int

    /// A memo keeping at most `capacity` states and as many transactions.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The state at `step` with the values of `atoms`, from `decode` the first time.
    func state(at step: Int, decodingValuesOf atoms: Set<Int>?, _ decode: () throws(InspectorError) -> JournalState) throws(InspectorError) -> JournalState {
        try value(in: \.states, for: Key(step: step, atoms: atoms), decode)
    }

    /// Transaction `seq` with the values of `atoms`, from `decode` the first time.
    func transaction(_ seq: Int, decodingValuesOf atoms: Set<Int>?, _ decode: () throws(InspectorError) -> TransactionRecord) throws(InspectorError) -> TransactionRecord {
        try value(in: \.transactions, for: Key(step: seq, atoms: atoms), decode)
    }

    /// The difference between the states at two steps, from `compare` the first time.
    func difference(from: Int, to: Int, atoms pattern: String?, _ compare: () throws(InspectorError) -> DiffCommand.Difference) throws(InspectorError) -> DiffCommand.Difference {
        try value(in: \.differences, for: StepPair(from: from, to: to, atoms: pattern), compare)
    }

    /// The value kept in `table` for `key`, from `make` the first time; a full table is emptied.
    private func value<K: Hashable & Sendable, V: Sendable>(
        in table: WritableKeyPath<Kept, [K: V]> & Sendable, for key: K, _ make: () throws(InspectorError) -> V
    ) throws(InspectorError) -> V {
        if let value = kept.withLock({ $0[keyPath: table][key] }) {
            return value
        }
        let value = try make()
        kept.withLock { kept in
            if kept[keyPath: table].count >= capacity { kept[keyPath: table].removeAll(keepingCapacity: true) }
            kept[keyPath: table][key] = value
        }
        return value
    }
}
