import AtomsJournalReader

/// A ``BoundExpression`` prepared for a scan that evaluates it at every step: each path
/// resolved to its atom's numbers once, and each value read either from a state or as the
/// bytes a skipped line wrote (``TransactionWalk/pendingValue(of:)``).
///
/// A comparison of such bytes with an integer literal is decided on the digits when they
/// spell an integer; anything else is decoded and compared as ``BoundExpression`` compares
/// (`SearchDifferentialTests` holds the two to the same steps).
struct CompiledCondition {
    private indirect enum Node {
        case literal(JSONValue, integer: Int?)
        case path(ids: [Int], components: [ValuePath.Component])
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(WhereExpression.Comparison, Node, Node)
    }

    /// A value evaluated: decoded, or the bytes of a number or literal as written.
    private enum Operand {
        case value(JSONValue)
        case bytes([UInt8])

        var decoded: JSONValue {
            switch self {
            case .value(let value): return value
            case .bytes(let bytes): return CompiledCondition.decode(bytes)
            }
        }

        var isTrue: Bool {
            switch self {
            case .value(let value): return value == .bool(true)
            case .bytes(let bytes): return bytes.elementsEqual("true".utf8)
            }
        }
    }

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
    func holds(in values: [Int: ValueEntry], pending: (Int) -> [UInt8]?) -> Bool {
        evaluate(root, values, pending).isTrue
    }

    private func evaluate(_ node: Node, _ values: [Int: ValueEntry], _ pending: (Int) -> [UInt8]?) -> Operand {
        switch node {
        case .literal(let value, _):
            return .value(value)
        case .path(let ids, let components):
            for id in ids {
                var value: JSONValue
                if let bytes = pending(id) {
                    guard !components.isEmpty else { return .bytes(bytes) }
                    value = Self.decode(bytes)
                } else if let entry = values[id] {
                    value = BoundExpression.value(of: entry)
                } else {
                    continue
                }
                for component in components {
                    value = BoundExpression.step(into: value, component)
                }
                return .value(value)
            }
            return .value(.null)
        case .not(let operand):
            return .value(.bool(!evaluate(operand, values, pending).isTrue))
        case .and(let lhs, let rhs):
            return .value(.bool(evaluate(lhs, values, pending).isTrue && evaluate(rhs, values, pending).isTrue))
        case .or(let lhs, let rhs):
            return .value(.bool(evaluate(lhs, values, pending).isTrue || evaluate(rhs, values, pending).isTrue))
        case .compare(let comparison, let lhsNode, let rhsNode):
            let (lhs, rhs) = (evaluate(lhsNode, values, pending), evaluate(rhsNode, values, pending))
            if let decided = Self.compareIntegers(comparison, lhs, lhsNode, rhs, rhsNode) {
                return .value(.bool(decided))
            }
            return .value(.bool(BoundExpression.compare(comparison, lhs.decoded, rhs.decoded)))
        }
    }

    /// A comparison of a value's bytes with an integer literal, on the digits: `nil` when
    /// the bytes do not spell an integer.
    private static func compareIntegers(_ comparison: WhereExpression.Comparison, _ lhs: Operand, _ lhsNode: Node, _ rhs: Operand, _ rhsNode: Node) -> Bool? {
        let a: Int
        let b: Int
        switch (lhs, lhsNode, rhs, rhsNode) {
        case (.bytes(let bytes), _, _, .literal(_, let literal?)):
            guard let value = bytes.withUnsafeBytes(integer) else { return nil }
            (a, b) = (value, literal)
        case (_, .literal(_, let literal?), .bytes(let bytes), _):
            guard let value = bytes.withUnsafeBytes(integer) else { return nil }
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
    static func decode(_ bytes: [UInt8]) -> JSONValue {
        bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return (try? scanner.value()) ?? .null
        }
    }
}
