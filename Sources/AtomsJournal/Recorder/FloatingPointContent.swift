import Foundation

/// Whether values of a type can hold a floating-point number, for the recorder's comparisons.
///
/// `==` calls `0.0` and `-0.0` equal, but the journal writes them differently (`0` and `-0`)
/// and keyframes hold the true value: a change of only the sign of a zero must be recorded.
/// So the recorder compares floating-point numbers by their bits, and trusts a type's `==`
/// only when its values cannot hold one.
///
/// The answer is judged from a value: leaves and collections by their types, structs and
/// tuples by their members (`Mirror`). Where a value cannot tell (an empty collection of
/// structs, an enum with payloads, a class), the answer is "may hold one": slower, never wrong.
enum FloatingPointContent {
    /// Whether `value`, or another value of its type, may hold a floating-point number.
    static func mayHold(_ value: Any) -> Bool {
        let type = Swift.type(of: value)
        if let known = typeLevelAnswer(type) {
            return known
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct?, .tuple?:
            return mirror.children.contains { mayHold($0.value) }
        case .collection?, .set?, .dictionary?, .optional?:
            // Elements of a type the type alone cannot answer for: judged from those present.
            return mirror.children.isEmpty || mirror.children.contains { mayHold($0.value) }
        case .enum?:
            // Only the case at hand shows its payload; an enum with raw values has none.
            return !(type is any RawRepresentable.Type)
        default:
            return true
        }
    }

    /// The answer from the type alone, `nil` when it needs a value.
    static func typeLevelAnswer(_ type: Any.Type) -> Bool? {
        if type == Double.self || type == Float.self || type == Date.self {
            return true
        }
        if type == Int.self || type == String.self || type == Bool.self || type == Int8.self
            || type == Int16.self || type == Int32.self || type == Int64.self || type == UInt.self
            || type == UInt8.self || type == UInt16.self || type == UInt32.self || type == UInt64.self
            || type == Data.self || type == URL.self || type == UUID.self || type == Decimal.self
        {
            return false
        }
        guard let container = type as? any JournalElementTypes.Type else { return nil }
        var unknown = false
        for element in container.journalElementTypes {
            switch typeLevelAnswer(element) {
            case true?: return true
            case false?: continue
            case nil: unknown = true
            }
        }
        return unknown ? nil : false
    }
}

/// Containers whose element types say whether they may hold floating-point numbers.
protocol JournalElementTypes {
    /// The types of the elements (a dictionary's keys and values).
    static var journalElementTypes: [Any.Type] { get }
}

extension Optional: JournalElementTypes {
    static var journalElementTypes: [Any.Type] { [Wrapped.self] }
}

extension Array: JournalElementTypes {
    static var journalElementTypes: [Any.Type] { [Element.self] }
}

extension Set: JournalElementTypes {
    static var journalElementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: JournalElementTypes {
    static var journalElementTypes: [Any.Type] { [Key.self, Value.self] }
}
