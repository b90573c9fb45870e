/// How a capture slot compares and encodes values of its type when the slot knows the type
/// only as `Encodable`: a ``JournalRecordable`` type's own code, reached through a class
/// made once per slot.
class RecordableCoding<Value: Encodable>: @unchecked Sendable {
    // Unchecked: holds nothing; used on the recorder's thread.

    /// What changed from `old` to `new`.
    func change(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
        preconditionFailure("RecordableCoding is made for JournalRecordable types only")
    }

    /// The value's JSON, `nil` when a member could not be encoded.
    func json(of value: Value, differ: ValueDiffer) -> [UInt8]? {
        preconditionFailure("RecordableCoding is made for JournalRecordable types only")
    }
}

/// ``RecordableCoding`` for a ``JournalRecordable`` type.
final class RecordableTypeCoding<Value: JournalRecordable>: RecordableCoding<Value>, @unchecked Sendable {
    override func change(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
        differ.recordableChange(from: old, to: new)
    }

    override func json(of value: Value, differ: ValueDiffer) -> [UInt8]? {
        differ.recordableJSON(of: value)
    }
}
