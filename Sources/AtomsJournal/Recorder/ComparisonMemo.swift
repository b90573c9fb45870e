#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last comparison of two values of one type in the transaction being recorded, with its
/// result, shared by the capture slots of every atom holding the type: a derived atom often
/// holds the very value of the atom it derives from (a filter that keeps everything), and the
/// same two values are then compared twice in one transaction. The second costs a bitwise
/// check.
///
/// It keeps the values' bits, not the values: holding them would keep old versions alive and
/// move their release (a 500-element array's strings) to the recorder's thread. Bits are enough
/// within one transaction, whose values the slots keep alive until the batch is done, and
/// whose values hold no class instance (those are encoded at capture), so the same bits mean
/// the same value; a comparison counts only in the transaction it was made in
/// (``ValueDiffer/transaction``).
final class ComparisonMemo<Value>: @unchecked Sendable {
    // Unchecked: made on the main actor with the slots, used on the recorder's thread only.

    private let lastBits: UnsafeMutableRawPointer
    private var lastTransaction = -1
    private var lastChange = ValueDiffer.Change.unchanged

    init() {
        lastBits = UnsafeMutableRawPointer.allocate(byteCount: max(2 * MemoryLayout<Value>.size, 1), alignment: 16)
    }

    deinit {
        lastBits.deallocate()
    }

    /// What changed from `old` to `new`: the change remembered when the same two values were
    /// compared earlier in this transaction, `compare`'s otherwise. The change stays the
    /// memo's: its delta is not the caller's to recycle.
    func change(from old: Value, to new: Value, differ: ValueDiffer, compare: (Value, Value) -> ValueDiffer.Change) -> ValueDiffer.Change {
        let size = MemoryLayout<Value>.size
        if lastTransaction == differ.transaction, Self.matches(lastBits, old), Self.matches(lastBits + size, new) {
            return lastChange
        }
        let change = compare(old, new)
        withUnsafeBytes(of: old) { lastBits.copyMemory(from: $0.baseAddress!, byteCount: size) }
        withUnsafeBytes(of: new) { (lastBits + size).copyMemory(from: $0.baseAddress!, byteCount: size) }
        lastTransaction = differ.transaction
        differ.recycle(&lastChange)
        lastChange = change
        return change
    }

    /// Whether `bits` are `value`'s bits.
    private static func matches(_ bits: UnsafeMutableRawPointer, _ value: Value) -> Bool {
        withUnsafeBytes(of: value) { bytes in
            bytes.count == 0 || memcmp(bits, bytes.baseAddress!, bytes.count) == 0
        }
    }
}
