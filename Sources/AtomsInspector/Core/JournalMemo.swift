import AtomsJournal
import Synchronization

/// Decoded states and transactions of one journal, kept so that a `step` session (or a
/// fuzzer's many sessions over one journal) decodes each once however often it comes back
/// to a step. Bounded: once `capacity` states or transactions are kept, it starts over.
///
/// A state or a transaction is a function of the journal's bytes, which a reader never
/// rereads after opening: what is kept never goes stale. Errors are not kept.
package final class JournalMemo: Sendable {
    /// A step (or sequence number) and the atoms whose values were decoded.
    private struct Key: Hashable {
        var step: Int
        var atoms: Set<Int>?
    }

    private struct Kept {
        var states: [Key: JournalState] = [:]
        var transactions: [Key: TransactionRecord] = [:]
    }

    private let kept = Mutex(Kept())
    private let capacity: Int

    /// A memo keeping at most `capacity` states and as many transactions.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The state at `step` with the values of `atoms`, from `decode` the first time.
    func state(at step: Int, decodingValuesOf atoms: Set<Int>?, _ decode: () throws(InspectorError) -> JournalState) throws(InspectorError) -> JournalState {
        let key = Key(step: step, atoms: atoms)
        if let state = kept.withLock({ $0.states[key] }) {
            return state
        }
        let state = try decode()
        kept.withLock { kept in
            if kept.states.count >= capacity { kept.states.removeAll(keepingCapacity: true) }
            kept.states[key] = state
        }
        return state
    }

    /// Transaction `seq` with the values of `atoms`, from `decode` the first time.
    func transaction(_ seq: Int, decodingValuesOf atoms: Set<Int>?, _ decode: () throws(InspectorError) -> TransactionRecord) throws(InspectorError) -> TransactionRecord {
        let key = Key(step: seq, atoms: atoms)
        if let record = kept.withLock({ $0.transactions[key] }) {
            return record
        }
        let record = try decode()
        kept.withLock { kept in
            if kept.transactions.count >= capacity { kept.transactions.removeAll(keepingCapacity: true) }
            kept.transactions[key] = record
        }
        return record
    }
}
