import Foundation
// `_forEachField` lists a type's stored fields with their declared types, which `Mirror`
// cannot tell: an existential field holding a number now may hold an object later.
@_spi(Reflection) import Swift

/// Decides whether an atom's value may be encoded later, on the recorder's own thread, instead
/// of on the main actor as it commits.
///
/// Atom values are not required to be `Sendable`, and Swift cannot ask at run time whether a
/// value is. A copy of a value made only of value types (numbers, strings, arrays, structs,
/// enums, …) can be read from another thread safely: later changes on the main actor go to
/// other storage (copy-on-write). A class instance anywhere inside cannot: the main actor may
/// change it while the recorder reads it. So a value qualifies when reflection finds no class
/// instance in it. Verdicts that hold for every value of a type (a struct of numbers and
/// strings, an array of such structs) are cached per type, so the usual check is one
/// dictionary lookup; other values are walked, up to ``walkLimit`` parts, and encoded at once
/// when the walk finds a class or is cut short.
struct OffThreadEncodingCheck {
    /// Parts of one value the check looks at before deciding to encode it at once.
    static let walkLimit = 256

    private enum Verdict {
        case safe
        case unsafe
    }

    /// Verdicts that depend only on the type.
    private var verdicts: [ObjectIdentifier: Verdict] = [:]
    /// Whether a struct's or tuple's stored fields all have concrete declared types.
    private var concreteLayouts: [ObjectIdentifier: Bool] = [:]
    /// The verdict looked up last.
    private var lastVerdict: (type: ObjectIdentifier, verdict: Verdict)?

    /// Whether `value` may be encoded on another thread.
    mutating func allowsLaterEncoding(of value: Any) -> Bool {
        let type = Swift.type(of: value)
        // Consecutive transactions mostly change values of one type: skip the lookup then.
        if let last = lastVerdict, last.type == ObjectIdentifier(type) {
            return last.verdict == .safe
        }
        if let verdict = verdicts[ObjectIdentifier(type)] {
            lastVerdict = (ObjectIdentifier(type), verdict)
            return verdict == .safe
        }
        // AsyncPhase and values that are not `Encodable` take other paths: decide them once.
        guard value is any Encodable, !(value is any JournalPhaseRepresentable) else {
            verdicts[ObjectIdentifier(type)] = .unsafe
            return false
        }
        var budget = Self.walkLimit
        return check(value, budget: &budget).isSafe
    }

    /// Whether the verdict on values of `type` holds for every value of it: then a capture
    /// slot asks once, not per value.
    func decidesForEveryValue(of type: Any.Type) -> Bool {
        verdicts[ObjectIdentifier(type)] != nil
    }

    /// The outcome of checking one part: whether it is safe, and whether that holds for every
    /// value of its type.
    private struct Outcome {
        var isSafe: Bool
        var holdsForType: Bool
    }

    private mutating func check(_ value: Any, budget: inout Int) -> Outcome {
        let type = Swift.type(of: value)
        let id = ObjectIdentifier(type)
        if let verdict = verdicts[id] {
            return Outcome(isSafe: verdict == .safe, holdsForType: true)
        }
        budget -= 1
        guard budget > 0 else {
            return Outcome(isSafe: false, holdsForType: false)
        }
        let outcome = uncachedCheck(value, type: type, budget: &budget)
        if outcome.holdsForType {
            verdicts[id] = outcome.isSafe ? .safe : .unsafe
        }
        return outcome
    }

    private mutating func uncachedCheck(_ value: Any, type: Any.Type, budget: inout Int) -> Outcome {
        if type is AnyClass {
            return Outcome(isSafe: false, holdsForType: true)
        }
        if Self.isPlainValueType(type) {
            return Outcome(isSafe: true, holdsForType: true)
        }
        if value is any CustomReflectable, !(type is any ElementTypesExposing.Type) {
            // Its mirror shows what it chooses, not its storage: judge the stored fields'
            // declared types alone, and qualify only when they decide it.
            return Outcome(isSafe: staticallyPlain(type), holdsForType: true)
        }
        // A raw-representable enum has no payloads: its raw value's type decides.
        if let raw = value as? any RawRepresentable, Mirror(reflecting: value).displayStyle == .enum {
            let outcome = check(raw.rawValue, budget: &budget)
            return Outcome(isSafe: outcome.isSafe, holdsForType: outcome.holdsForType)
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct?, .tuple?:
            // Stored properties are the same for every value of the type, unless one is
            // declared as an existential (or another type whose values differ in kind): then
            // each value is checked.
            return combine(mirror.children.map(\.value), holdsForType: hasConcreteLayout(type), budget: &budget)
        case .collection?, .set?, .dictionary?, .optional?:
            // When every element type is known to be safe, so is every value of the type.
            if let elements = type as? any ElementTypesExposing.Type,
                elements.elementTypes.allSatisfy({ verdicts[ObjectIdentifier($0)] == .safe })
            {
                return Outcome(isSafe: true, holdsForType: true)
            }
            let parts: [Any] = mirror.displayStyle == .dictionary
                ? mirror.children.flatMap { Mirror(reflecting: $0.value).children.map(\.value) }
                : mirror.children.map(\.value)
            let outcome = combine(parts, holdsForType: false, budget: &budget)
            return Outcome(isSafe: outcome.isSafe, holdsForType: false)
        case .enum?:
            // Another case may carry other payloads: decide per value.
            let outcome = combine(mirror.children.map(\.value), holdsForType: false, budget: &budget)
            return Outcome(isSafe: outcome.isSafe, holdsForType: false)
        default:
            // A class, or a type reflection says nothing about: not safe.
            return Outcome(isSafe: false, holdsForType: mirror.displayStyle == .class)
        }
    }

    /// Whether every stored field of a struct or tuple is declared with a concrete type (no
    /// existential, function or opaque field), so that its values' parts have the same types.
    private mutating func hasConcreteLayout(_ type: Any.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = concreteLayouts[key] {
            return known
        }
        var concrete = true
        _forEachField(of: type) { _, _, _, kind in
            switch kind {
            case .existential, .existentialMetatype, .function, .opaque, .unknown, .objcClassWrapper, .foreignClass:
                concrete = false
                return false
            default:
                return true
            }
        }
        concreteLayouts[key] = concrete
        return concrete
    }

    /// Whether a type's declared stored fields are, recursively, plain values: numbers,
    /// strings and structs or tuples of them (collections of them included). Anything else
    /// (a class, an existential, an enum whose payloads may differ) is not decided here.
    private func staticallyPlain(_ type: Any.Type, depth: Int = 0) -> Bool {
        if Self.isPlainValueType(type) {
            return true
        }
        guard depth < 16 else { return false }
        if let elements = type as? any ElementTypesExposing.Type {
            return elements.elementTypes.allSatisfy { staticallyPlain($0, depth: depth + 1) }
        }
        // (Enums list no fields: a type without any is not decided here either.)
        var plain = true
        var fields = 0
        let isStructure = _forEachField(of: type) { _, _, fieldType, kind in
            fields += 1
            guard kind == .struct || kind == .tuple, staticallyPlain(fieldType, depth: depth + 1) else {
                plain = false
                return false
            }
            return true
        }
        return isStructure && plain && fields > 0
    }

    private mutating func combine(_ parts: [Any], holdsForType: Bool, budget: inout Int) -> Outcome {
        var holds = holdsForType
        for part in parts {
            let outcome = check(part, budget: &budget)
            guard outcome.isSafe else {
                return Outcome(isSafe: false, holdsForType: holds && outcome.holdsForType)
            }
            holds = holds && outcome.holdsForType
        }
        return Outcome(isSafe: true, holdsForType: holds)
    }

    /// Standard value types with no reference semantics (their storage is copy-on-write or
    /// inline).
    private static func isPlainValueType(_ type: Any.Type) -> Bool {
        type == String.self || type == Int.self || type == Bool.self || type == Double.self
            || type == Float.self || type == Int8.self || type == Int16.self || type == Int32.self
            || type == Int64.self || type == UInt.self || type == UInt8.self || type == UInt16.self
            || type == UInt32.self || type == UInt64.self || type == Character.self
            || type == Substring.self || type == Date.self || type == UUID.self || type == URL.self
            || type == Data.self || type == Decimal.self
    }
}

/// Collections and optionals, which tell their element types without a value.
private protocol ElementTypesExposing {
    static var elementTypes: [Any.Type] { get }
}

extension Array: ElementTypesExposing {
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: ElementTypesExposing {
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: ElementTypesExposing {
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: ElementTypesExposing {
    static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}

extension Optional: ElementTypesExposing {
    static var elementTypes: [Any.Type] { [Wrapped.self] }
}
