import AtomsJournalReader

/// A condition on atom values, as `find --where` and `step`'s `where` take it:
/// `StatsAtom.total > 3 && !(FilterAtom == "all")`.
///
/// Operands are literals (numbers, `"strings"`, `true`, `false`, `null`) and paths into atom
/// values (``ValuePath``); they combine with `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`
/// and parentheses. The expression holds at a step when it evaluates to `true` there.
///
/// ## Example
/// ```swift
/// let expression = try WhereExpression.parse("TodosAtom[0].text == \"Buy milk\"")
/// ```
package indirect enum WhereExpression: Equatable, Sendable, CustomStringConvertible {
    /// A literal value.
    case literal(JSONValue)
    /// A value inside an atom's value.
    case path(ValuePath)
    /// `!operand`: true when the operand is not `true`.
    case not(WhereExpression)
    /// `lhs && rhs`.
    case and(WhereExpression, WhereExpression)
    /// `lhs || rhs`.
    case or(WhereExpression, WhereExpression)
    /// `lhs op rhs`.
    case compare(Comparison, WhereExpression, WhereExpression)

    /// A comparison operator.
    package enum Comparison: String, Equatable, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// Parses an expression.
    ///
    /// - Throws: ``InspectorError`` (usage, exit 64) naming the column where the text stops
    ///   making sense.
    package static func parse(_ text: String) throws(InspectorError) -> WhereExpression {
        var parser = WhereParser(text)
        return try parser.parseExpression()
    }

    /// Every path the expression reads, in the order they appear.
    package var paths: [ValuePath] {
        switch self {
        case .literal: []
        case .path(let path): [path]
        case .not(let operand): operand.paths
        case .and(let lhs, let rhs), .or(let lhs, let rhs), .compare(_, let lhs, let rhs): lhs.paths + rhs.paths
        }
    }

    /// The expression written back, fully parenthesized where operators nest.
    package var description: String {
        switch self {
        case .literal(let value): value.jsonText
        case .path(let path): path.description
        case .not(let operand): "!\(operand.nested)"
        case .and(let lhs, let rhs): "\(lhs.nested) && \(rhs.nested)"
        case .or(let lhs, let rhs): "\(lhs.nested) || \(rhs.nested)"
        case .compare(let comparison, let lhs, let rhs): "\(lhs.nested) \(comparison.rawValue) \(rhs.nested)"
        }
    }

    private var nested: String {
        switch self {
        case .literal, .path, .not: description
        default: "(\(description))"
        }
    }
}

/// A path into an atom's value: the atom, then members (`.total`), indices (`[0]`, `[-1]`
/// from the end) and keys (`["a key"]`). `.count` on an array, a string or an object without a
/// `count` member is its number of elements, characters or members.
///
/// The atom is named by its label (`StatsAtom`), its display name (`'Family[key]'`, quoted
/// because of the brackets) or its module-qualified type (`'App.StatsAtom'`).
package struct ValuePath: Hashable, Sendable, CustomStringConvertible {
    /// How the atom was written.
    package var atom: String
    /// Whether the atom's name was quoted (`'…'`).
    package var quoted: Bool
    /// The steps into the atom's value.
    package var components: [Component]
    /// The column (1-based) where the path starts, for messages.
    package var column: Int

    /// One step into a value.
    package enum Component: Hashable, Sendable {
        /// `.name` or `["name"]`: an object's member.
        case member(String)
        /// `[N]`: an array's element; negative counts from the end.
        case index(Int)
    }

    /// Creates a path.
    package init(atom: String, quoted: Bool = false, components: [Component] = [], column: Int = 1) {
        self.atom = atom
        self.quoted = quoted
        self.components = components
        self.column = column
    }

    /// The path as written.
    package var description: String {
        var text = quoted ? "'\(atom)'" : atom
        for component in components {
            switch component {
            case .member(let name) where name.allSatisfy(WhereParser.isIdentifierCharacter) && !name.isEmpty:
                text += "." + name
            case .member(let name): text += "[\(JSONValue.string(name).jsonText)]"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
