/// The transactions a reader decoded last, so that reading one again is free: `step` moving
/// back and forth, `diff` and `blame` read the same few lines over and over.
///
/// Holds at most ``capacity`` records, each from a line of at most ``largestLine`` bytes (a
/// large value is cheaper to decode again than to keep), and forgets the oldest first.
struct RecentTransactions {
    /// The most records kept.
    static let capacity = 256
    /// The longest line whose record is kept.
    static let largestLine = 16 << 10

    private var records: [Int: (atoms: Set<Int>?, record: TransactionRecord)] = [:]
    private var order: [Int] = []
    private var oldest = 0

    /// The record of `seq` decoded for the same atoms, if kept.
    func record(_ seq: Int, decodingValuesOf atoms: Set<Int>?) -> TransactionRecord? {
        guard let kept = records[seq], kept.atoms == atoms else { return nil }
        return kept.record
    }

    /// Keeps a record read from a line of `lineLength` bytes.
    mutating func keep(_ record: TransactionRecord, seq: Int, decodingValuesOf atoms: Set<Int>?, lineLength: Int) {
        guard lineLength <= Self.largestLine else { return }
        if records.updateValue((atoms, record), forKey: seq) != nil { return }
        if order.count < Self.capacity {
            order.append(seq)
        } else {
            // A ring: the slot of the oldest record takes the newest.
            records[order[oldest]] = nil
            order[oldest] = seq
            oldest = (oldest + 1) % Self.capacity
        }
    }
}
