/// An atom's change between two of its values as the recorder finds it (its own
/// ``ValueDiffer``): what a replay compares with the change a journal recorded, so that a
/// checked atom costs what changed, not what it weighs.
///
/// Keep one per replay: it caches what it learns of each type.
package final class RecordedComparison {
    /// How a value changed.
    package enum Change: Equatable {
        /// Equal: the recorder writes `[id,"="]` or nothing.
        case unchanged
        /// Different, by a delta (the recorder writes `[id,"d",delta]`): the one recorded, or not.
        case delta(sameAsRecorded: Bool)
        /// Different, best compared whole (the recorder writes the value whole), or not
        /// comparable this way (not `Encodable`, no previous value).
        case whole
    }

    /// A delta a journal recorded, as a replay's walk gives it.
    package enum RecordedDelta {
        /// Parsed.
        case parsed(JSONValue)
        /// As the journal's bytes (``RecordedDeltaBytes``): compared with today's bytes first.
        case bytes(ArraySlice<UInt8>)
    }

    private let differ = ValueDiffer()

    /// Creates a comparison.
    package init() {}

    /// The recorder's comparison of two values of a type, made once per type: `nil` when the
    /// type is not `Encodable` (its values are recorded as dumps, compared whole).
    package static func comparer<Value>(for type: Value.Type) -> ((Value, Value, RecordedDelta?, RecordedComparison) -> Change)? {
        guard let encodable = type as? any Encodable.Type else { return nil }
        return comparer(opening: encodable, as: type)
    }

    private static func comparer<Value, Opened: Encodable>(opening: Opened.Type, as type: Value.Type) -> (Value, Value, RecordedDelta?, RecordedComparison) -> Change {
        { old, new, recorded, comparison in
            // Casts of a value to its own type (`Opened` is `Value`, opened): they succeed.
            guard let old = old as? Opened, let new = new as? Opened else { return .whole }
            return comparison.change(from: old, to: new, recorded: recorded)
        }
    }

    /// How `new` differs from `old`, as the recorder writes it; a delta is compared with
    /// `recorded` (the delta the journal holds for the same step, if any): byte for byte when
    /// the journal's bytes are given, else (and where the bytes differ, as a journal written
    /// by another version may) as JSON, as today's delta is scanned, without building it.
    package func change<T: Encodable>(from old: T, to new: T, recorded: RecordedDelta?) -> Change {
        switch differ.change(from: old, to: new) {
        case .unchanged:
            return .unchanged
        case .replaced:
            return .whole
        case .delta(var bytes):
            defer { differ.recycle(&bytes) }
            switch recorded {
            case nil:
                return .delta(sameAsRecorded: false)
            case .parsed(let value):
                return .delta(sameAsRecorded: JSONValue.parsed(bytes, equals: value))
            case .bytes(let recordedBytes):
                if bytes.elementsEqual(recordedBytes) { return .delta(sameAsRecorded: true) }
                guard let value = try? JSONValue.parse(recordedBytes) else { return .delta(sameAsRecorded: false) }
                return .delta(sameAsRecorded: JSONValue.parsed(bytes, equals: value))
            }
        }
    }
}
