/// How capture slots compare and encode values of their type when they know the type only as
/// `Encodable`: a ``JournalRecordable`` type's own code, reached through a class made once per
/// type and recorder, and shared by the slots of every atom holding that type.
class RecordableCoding<Value: Encodable>: @unchecked Sendable {
    // Unchecked: used on the recorder's thread only (made on the main actor).

    /// What changed from `old` to `new`, as the type's own code compares them.
    func change(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
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
    override func change(from old: Value, to new: Value, differ: ValueDiffer) -> ValueDiffer.Change {
        differ.recordableChange(from: old, to: new)
    }

    override func json(of value: Value, differ: ValueDiffer) -> [UInt8]? {
        differ.recordableJSON(of: value)
    }
}
