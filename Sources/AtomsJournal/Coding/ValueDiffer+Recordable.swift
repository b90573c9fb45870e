/// Comparing and encoding ``JournalRecordable`` values and their members.
extension ValueDiffer {
    /// What changed between two values of a type that compares its own members.
    func recordableChange<T: JournalRecordable>(from old: T, to new: T) -> Change {
        if Self.bitwiseEqual(old, new) {
            return .unchanged
        }
        var changes = _JournalChanges(differ: self)
        new.writeJournalChanges(from: old, to: &changes)
        return changes.finish()
    }

    /// The JSON of a value that writes its own, `nil` when a member could not be encoded; in a
    /// buffer to ``recycle(_:)-([UInt8])`` once written out.
    func recordableJSON<T: JournalRecordable>(of value: T) -> [UInt8]? {
        var writer = _JournalJSONWriter(differ: self, bytes: takeBuffer())
        value.writeJournalJSON(to: &writer)
        return writer.failed ? nil : writer.takeBytes()
    }

    /// What changed in a member that is not `JournalRecordable`: numbers, strings and
    /// booleans as a keyed container's `encode` captures them (a `Double` by its bits, as it
    /// is written), anything else as ``change(from:to:)`` compares it.
    func memberChange<T: Encodable>(from old: T, to new: T) -> Change {
        if T.self == Int.self {
            return unsafeBitCast(old, to: Int.self) == unsafeBitCast(new, to: Int.self) ? .unchanged : .replaced
        } else if T.self == String.self {
            return unsafeBitCast(old, to: String.self) == unsafeBitCast(new, to: String.self) ? .unchanged : .replaced
        } else if T.self == Bool.self {
            return unsafeBitCast(old, to: Bool.self) == unsafeBitCast(new, to: Bool.self) ? .unchanged : .replaced
        } else if T.self == Double.self {
            return unsafeBitCast(old, to: Double.self).bitPattern == unsafeBitCast(new, to: Double.self).bitPattern ? .unchanged : .replaced
        }
        return change(from: old, to: new)
    }

}
