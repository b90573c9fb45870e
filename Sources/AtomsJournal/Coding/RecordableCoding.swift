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
    /// The values compared last (initialized while `hasLast`), behind pointers: `Value?` would
    /// look its metadata up on every use in this unspecialized code, and `Any` would box them.
    private let lastOld = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    private let lastNew = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    private var hasLast = false
    private var lastChange = ValueDiffer.Change.unchanged

    deinit {
        if hasLast {
            lastOld.deinitialize(count: 1)
            lastNew.deinitialize(count: 1)
        }
        lastOld.deallocate()
        lastNew.deallocate()
    }

    override func rememberedChange(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
        if hasLast, Self.holds(lastOld, old), Self.holds(lastNew, new) {
            return lastChange
        }
        let change = differ.recordableChange(from: old, to: new)
        if hasLast {
            lastOld.pointee = old
            lastNew.pointee = new
        } else {
            lastOld.initialize(to: old)
            lastNew.initialize(to: new)
            hasLast = true
        }
        differ.recycle(&lastChange)
        lastChange = change
        return change
    }

    override func json(of value: Value, differ: ValueDiffer) -> [UInt8]? {
        differ.recordableJSON(of: value)
    }

    /// Whether `stored` holds `value`'s bits (the same bits mean the same value; the values
    /// kept are retained, so their storage is not reused meanwhile).
    private static func holds(_ stored: UnsafeMutablePointer<Value>, _ value: Value) -> Bool {
        withUnsafeBytes(of: value) { bytes in
            bytes.count == 0 || memcmp(stored, bytes.baseAddress!, bytes.count) == 0
        }
    }
}
