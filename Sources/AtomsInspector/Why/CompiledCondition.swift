import AtomsJournalReader

/// A ``BoundExpression`` prepared for a scan that evaluates it at every step: each path
/// resolved to its atom's numbers once, and each value read either from a state or as the
/// bytes a skipped line wrote (``TransactionWalk/pendingValue(of:)``).
///
/// A comparison of such bytes with an integer literal is decided on the digits when they
/// spell an integer; anything else is decoded and compared as ``BoundExpression`` compares
/// (`CompiledConditionTests` and `SearchDifferentialTests` hold the two to the same steps).
struct CompiledCondition {
    private indirect enum Node {
        case literal(JSONValue, integer: Int?)
        case path(ids: [Int], components: [ValuePath.Component])
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(WhereExpression.Comparison, Node, Node)
    }

    /// Where an atom's value is read: the bytes a skipped line wrote, when it has them.
    typealias Pending = (Int) -> UnsafeRawBufferPointer?

    private let root: Node

    init(_ bound: BoundExpression) {
        func compile(_ expression: WhereExpression) -> Node {
            switch expression {
            case .literal(let value):
                var integer: Int?
                if case .number(let number) = value {
                    integer = Array(number.text.utf8).withUnsafeBytes(CompiledCondition.integer)
                }
                return .literal(value, integer: integer)
            case .path(let path):
                let binding = bound.binding(of: path)
                return .path(ids: binding.ids, components: binding.components)
            case .not(let operand): return .not(compile(operand))
            case .and(let lhs, let rhs): return .and(compile(lhs), compile(rhs))
            case .or(let lhs, let rhs): return .or(compile(lhs), compile(rhs))
            case .compare(let comparison, let lhs, let rhs): return .compare(comparison, compile(lhs), compile(rhs))
            }
        }
        root = compile(bound.expression)
    }

    /// Whether the expression is `true`, each atom's value taken from `pending` when it has
    /// bytes there, else from `values`.
    func holds(in values: [Int: ValueEntry], pending: Pending) -> Bool {
        Self.isTrue(root, values, pending)
    }

    private static func isTrue(_ node: Node, _ values: [Int: ValueEntry], _ pending: Pending) -> Bool {
        switch node {
        case .not(let operand):
            return !isTrue(operand, values, pending)
        case .and(let lhs, let rhs):
            return isTrue(lhs, values, pending) && isTrue(rhs, values, pending)
        case .or(let lhs, let rhs):
            return isTrue(lhs, values, pending) || isTrue(rhs, values, pending)
        case .compare(let comparison, let lhs, let rhs):
            if let decided = compareOnDigits(comparison, lhs, rhs, pending) {
                return decided
            }
            return BoundExpression.compare(comparison, value(lhs, values, pending), value(rhs, values, pending))
        case .literal, .path:
            return value(node, values, pending) == .bool(true)
        }
    }

    /// An operand's value, decoded.
    private static func value(_ node: Node, _ values: [Int: ValueEntry], _ pending: Pending) -> JSONValue {
        switch node {
        case .literal(let value, _):
            return value
        case .path(let ids, let components):
            for id in ids {
                var value: JSONValue
                if let bytes = pending(id) {
                    value = decode(bytes)
                } else if let entry = values[id] {
                    value = BoundExpression.value(of: entry)
                } else {
                    continue
                }
                for component in components {
                    value = BoundExpression.step(into: value, component)
                }
                return value
            }
            return .null
        default:
            return .bool(isTrue(node, values, pending))
        }
    }

    /// A comparison of an atom's value, as the bytes a skipped line wrote, with an integer
    /// literal, on the digits: `nil` when it is not that, or the bytes spell no integer.
    private static func compareOnDigits(_ comparison: WhereExpression.Comparison, _ lhs: Node, _ rhs: Node, _ pending: Pending) -> Bool? {
        // ``value(_:_:_:)`` reads the lowest number with a value: decided on the digits when
        // that number's are pending (the one number of an atom that is not damaged).
        func digits(_ node: Node) -> Int? {
            guard case .path(let ids, let components) = node, components.isEmpty, let lowest = ids.first, let bytes = pending(lowest) else { return nil }
            return integer(bytes)
        }
        let a: Int
        let b: Int
        switch (lhs, rhs) {
        case (.path, .literal(_, let literal?)):
            guard let value = digits(lhs) else { return nil }
            (a, b) = (value, literal)
        case (.literal(_, let literal?), .path):
            guard let value = digits(rhs) else { return nil }
            (a, b) = (literal, value)
        default:
            return nil
        }
        switch comparison {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }

    /// The integer a JSON number's text spells (`-`, up to 18 digits, no fraction or
    /// exponent), `nil` otherwise.
    static func integer(_ text: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard text.count - index > 0, text.count - index <= 18 else { return nil }
        var value = 0
        while index < text.count {
            let digit = text[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// A number or literal's bytes as a value (checked by the envelope scanner).
    static func decode(_ bytes: UnsafeRawBufferPointer) -> JSONValue {
        var scanner = JSONScanner(bytes)
        return (try? scanner.value()) ?? .null
    }
}
