#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How capture slots compare and encode values of their type when they know the type only as
/// `Encodable`: a ``JournalRecordable`` type's own code, reached through a class made once per
/// type and recorder, and shared by the slots of every atom holding that type.
class RecordableCoding<Value: Encodable>: @unchecked Sendable {
    // Unchecked: used on the recorder's thread only (made on the main actor).

    /// What changed from `old` to `new`, remembering the comparison: a derived atom often
    /// holds the very value of the atom it derives from, compared again in the same
    /// transaction. The change stays the coding's: its delta is not the caller's to recycle.
    func rememberedChange(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
        preconditionFailure("RecordableCoding is made for JournalRecordable types only")
    }

    /// The value's JSON, `nil` when a member could not be encoded; in a buffer to recycle
    /// once written out.
    func json(of value: Value, differ: ValueDiffer) -> [UInt8]? {
        preconditionFailure("RecordableCoding is made for JournalRecordable types only")
    }
}

/// ``RecordableCoding`` for a ``JournalRecordable`` type.
final class RecordableTypeCoding<Value: JournalRecordable>: RecordableCoding<Value>, @unchecked Sendable {
    /// The bits of the two values compared last, side by side. Not the values: holding them
    /// would keep old versions alive and move their release (a 500-element array's strings)
    /// to this thread. Bits are enough within one transaction, whose values the slots keep
    /// alive until the batch is done, so the comparison counts only within the transaction
    /// it was made in (``ValueDiffer/transaction``).
    private let lastBits: UnsafeMutableRawPointer
    private var lastTransaction = -1
    private var lastChange = ValueDiffer.Change.unchanged

    override init() {
        lastBits = UnsafeMutableRawPointer.allocate(byteCount: max(2 * MemoryLayout<Value>.size, 1), alignment: 16)
    }

    deinit {
        lastBits.deallocate()
    }

    override func rememberedChange(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
        let size = MemoryLayout<Value>.size
        if lastTransaction == differ.transaction, Self.matches(lastBits, old), Self.matches(lastBits + size, new) {
            return lastChange
        }
        let change = differ.recordableChange(from: old, to: new)
        withUnsafeBytes(of: old) { lastBits.copyMemory(from: $0.baseAddress!, byteCount: size) }
        withUnsafeBytes(of: new) { (lastBits + size).copyMemory(from: $0.baseAddress!, byteCount: size) }
        lastTransaction = differ.transaction
        differ.recycle(&lastChange)
        lastChange = change
        return change
    }

    override func json(of value: Value, differ: ValueDiffer) -> [UInt8]? {
        differ.recordableJSON(of: value)
    }

    /// Whether `bits` are `value`'s bits (the same bits mean the same value while it lives).
    private static func matches(_ bits: UnsafeMutableRawPointer, _ value: Value) -> Bool {
        withUnsafeBytes(of: value) { bytes in
            bytes.count == 0 || memcmp(bits, bytes.baseAddress!, bytes.count) == 0
        }
    }
}
