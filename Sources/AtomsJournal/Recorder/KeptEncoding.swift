import AtomsJournalReader

/// An atom's current value kept by its capture slot as its encoding: a value encoded at
/// capture (one holding a class instance, a phase, a redacted value, a value that is not
/// `Encodable`), or an object of numbers, strings and booleans, which costs less to compare as
/// JSON than as Swift values (``ValueDiffer/isFlat(_:)``). Each next encoding is compared
/// with it, and kept in its place.
struct KeptEncoding {
    /// The encoding kept, if any.
    private(set) var value: EncodedValue?

    /// Whether no encoding is kept.
    var isEmpty: Bool { value == nil }

    /// Appends the entry of `next` and keeps it: `[id,"d",delta]` for an object changed in some
    /// members (compared member by member with the kept one), `[id,"="]` for a value written
    /// the same as the kept one (an equal write, as for every kind of value), the whole value
    /// otherwise, and when `isNew` (the atom has no previous value in the journal).
    mutating func record(_ next: EncodedValue, id: Int, isNew: Bool, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) {
        if isNew || !appendChange(to: next, id: id, differ: differ, to: &output) {
            switch next {
            case .fields(let fields): TransactionLine.appendKeyed(id: id, fields: fields.utf8, to: &output)
            case .json(let bytes, _): TransactionLine.appendWhole(id: id, json: bytes, to: &output)
            }
        }
        keep(next, encoder: encoder)
    }

    /// Keeps `next` in place of the kept encoding, whose storage the next encoding reuses.
    mutating func keep(_ next: EncodedValue, encoder: ValueEncoder) {
        let old = value.take()
        value = next
        if let old {
            encoder.recycle(old)
        }
    }

    /// Lets the kept encoding go, its storage to the next encoding.
    mutating func drop(encoder: ValueEncoder) {
        if let old = value.take() {
            encoder.recycle(old)
        }
    }

    /// Appends the entry of a change from the kept encoding to `next`; `false`, appending
    /// nothing, when there is none to compare with or it is to be written whole. Its own
    /// function, so that its copy of the kept encoding is let go before that encoding's
    /// storage is reused.
    private func appendChange(to next: EncodedValue, id: Int, differ: ValueDiffer, to output: inout [UInt8]) -> Bool {
        guard let old = value else { return false }
        if case .json(let bytes, let members?) = next, case .json(let oldBytes, let oldMembers?) = old {
            var change = MemberDelta.change(old: oldBytes, oldMembers: oldMembers, new: bytes, newMembers: members, pool: differ)
            defer { differ.recycle(&change) }
            return TransactionLine.appendEntry(for: change, id: id, to: &output)
        }
        guard old.isSameEncoding(as: next) else { return false }
        TransactionLine.appendUnchanged(id: id, to: &output)
        return true
    }
}
