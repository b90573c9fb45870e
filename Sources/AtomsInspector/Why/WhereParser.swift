import AtomsJournalReader

/// Reads the text of a ``WhereExpression``: a tokenizer and a recursive-descent parser that
/// know the column of every token, so an error says where the text stops making sense.
///
/// Grammar, loosest first:
/// ```
/// or         = and ("||" and)*
/// and        = unary ("&&" unary)*
/// unary      = "!" unary | comparison
/// comparison = primary (("==" | "!=" | "<" | "<=" | ">" | ">=") primary)?
/// primary    = "(" or ")" | number | "string" | true | false | null | path
/// path       = (identifier | 'quoted name') ("." identifier | "[" integer "]" | "[" "string" "]")*
/// ```
struct WhereParser {
    private let characters: [Character]
    private var position = 0
    /// Open parentheses and `!`s around the current position: each is a level of recursion
    /// here and when evaluating, so hostile input cannot exhaust the stack.
    private var depth = 0
    /// Values read so far: `&&`/`||` chains nest the tree one level per operand.
    private var operands = 0

    /// The deepest nesting of parentheses and `!` accepted.
    static let maximumDepth = 64
    /// The most values (atom paths and literals) one expression may hold.
    static let maximumOperands = 256

    init(_ text: String) {
        characters = Array(text)
    }

    static func isIdentifierCharacter(_ character: Character) -> Bool {
        character == "_" || character == "$" || (character.isASCII && (character.isLetter || character.isNumber))
    }

    mutating func parseExpression() throws(InspectorError) -> WhereExpression {
        skipSpaces()
        guard position < characters.count else {
            throw failure("the expression is empty", column: 1)
        }
        let expression = try parseOr()
        skipSpaces()
        if position < characters.count {
            let rest = String(characters[position...].prefix(12))
            if characters[position] == "=" {
                throw failure("'=' is not an operator; compare with '=='")
            }
            throw failure("unexpected '\(rest)'")
        }
        return expression
    }

    // MARK: Grammar

    private mutating func parseOr() throws(InspectorError) -> WhereExpression {
        var expression = try parseAnd()
        while take("||") {
            expression = .or(expression, try parseAnd())
        }
        return expression
    }

    private mutating func parseAnd() throws(InspectorError) -> WhereExpression {
        var expression = try parseUnary()
        while take("&&") {
            expression = .and(expression, try parseUnary())
        }
        return expression
    }

    private mutating func parseUnary() throws(InspectorError) -> WhereExpression {
        skipSpaces()
        if peek("!") && !peek("!=") {
            position += 1
            try enter()
            defer { depth -= 1 }
            return .not(try parseUnary())
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(InspectorError) -> WhereExpression {
        let lhs = try parsePrimary()
        guard let comparison = takeComparison() else {
            return lhs
        }
        let rhs = try parsePrimary(after: comparison.rawValue)
        if takeComparison() != nil {
            throw failure("comparisons do not chain (a < b < c); join them with && instead", column: position)
        }
        return .compare(comparison, lhs, rhs)
    }

    private mutating func parsePrimary(after operatorText: String? = nil) throws(InspectorError) -> WhereExpression {
        skipSpaces()
        guard position < characters.count else {
            throw failure(operatorText.map { "expected a value after '\($0)'" } ?? "expected a value (an atom, a number, a \"string\", true, false, null or '(')")
        }
        let start = position
        let character = characters[position]
        operands += 1
        guard operands <= Self.maximumOperands else {
            throw failure("the expression has more than \(Self.maximumOperands) values")
        }
        if character == "(" {
            position += 1
            try enter()
            defer { depth -= 1 }
            let inner = try parseOr()
            guard take(")") else {
                throw failure("expected ')' to close the '(' at column \(start + 1)")
            }
            return inner
        }
        if character == "\"" {
            return .literal(.string(try readString()))
        }
        if character == "-" || character.isASCII && character.isNumber {
            return .literal(.number(try readNumber()))
        }
        if character == "'" {
            let name = try readQuotedName()
            return .path(ValuePath(atom: name, quoted: true, components: try readComponents(), column: start + 1))
        }
        if Self.isIdentifierCharacter(character) {
            let word = readIdentifier()
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: return .path(ValuePath(atom: word, components: try readComponents(), column: start + 1))
            }
        }
        throw failure(operatorText.map { "expected a value after '\($0)', found '\(character)'" } ?? "expected a value, found '\(character)'")
    }

    private mutating func readComponents() throws(InspectorError) -> [ValuePath.Component] {
        var components: [ValuePath.Component] = []
        while position < characters.count {
            if characters[position] == "." {
                position += 1
                guard position < characters.count, Self.isIdentifierCharacter(characters[position]) else {
                    throw failure("expected a member name after '.'")
                }
                components.append(.member(readIdentifier()))
            } else if characters[position] == "[" {
                let open = position
                position += 1
                skipSpaces()
                if peek("\"") {
                    components.append(.member(try readString()))
                } else {
                    let number = try readNumber()
                    guard number.isInteger, let index = number.int64.flatMap({ Int(exactly: $0) }) else {
                        throw failure("an index must be a whole number, as [0] or [-1]", column: open + 2)
                    }
                    components.append(.index(index))
                }
                guard take("]") else {
                    throw failure("expected ']' to close the '[' at column \(open + 1)")
                }
            } else {
                break
            }
        }
        return components
    }

    private mutating func enter() throws(InspectorError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw failure("parentheses and '!' nest more than \(Self.maximumDepth) deep")
        }
    }

    // MARK: Tokens

    private mutating func readIdentifier() -> String {
        let start = position
        while position < characters.count, Self.isIdentifierCharacter(characters[position]) {
            position += 1
        }
        return String(characters[start..<position])
    }

    private mutating func readNumber() throws(InspectorError) -> JSONNumber {
        let start = position
        if peek("-") { position += 1 }
        while position < characters.count, characters[position].isASCII,
              characters[position].isNumber || "+-.eE".contains(characters[position]) {
            // A sign only right after an exponent marker.
            if "+-".contains(characters[position]), !"eE".contains(characters[position - 1]) { break }
            position += 1
        }
        let text = String(characters[start..<position])
        guard let number = JSONNumber(text: text) else {
            throw failure(text == "-" ? "expected a number after '-'" : "'\(text)' is not a number (write numbers as JSON does: 3, -1.5, 2e10)", column: start + 1)
        }
        return number
    }

    /// A double-quoted string with JSON's escapes.
    private mutating func readString() throws(InspectorError) -> String {
        let start = position
        position += 1
        var text = ""
        while position < characters.count {
            let character = characters[position]
            position += 1
            if character == "\"" {
                return text
            }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard position < characters.count else { break }
            let escape = characters[position]
            position += 1
            switch escape {
            case "\"", "\\", "/": text.append(escape)
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "u":
                let hex = String(characters[position..<min(position + 4, characters.count)])
                guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw failure("\\u needs four hexadecimal digits of a Unicode scalar", column: position - 1)
                }
                text.unicodeScalars.append(scalar)
                position += 4
            default:
                throw failure("unknown escape '\\\(escape)' in a string (use \\\", \\\\, \\n, \\t, \\r or \\uXXXX)", column: position - 1)
            }
        }
        throw failure("the string that starts here has no closing '\"'", column: start + 1)
    }

    /// A single-quoted atom name; `\'` and `\\` escape.
    private mutating func readQuotedName() throws(InspectorError) -> String {
        let start = position
        position += 1
        var name = ""
        while position < characters.count {
            var character = characters[position]
            position += 1
            if character == "'" {
                guard !name.isEmpty else { throw failure("an atom name in quotes is empty", column: start + 1) }
                return name
            }
            if character == "\\", position < characters.count, "'\\".contains(characters[position]) {
                character = characters[position]
                position += 1
            }
            name.append(character)
        }
        throw failure("the atom name that starts here has no closing \"'\"", column: start + 1)
    }

    private mutating func takeComparison() -> WhereExpression.Comparison? {
        skipSpaces()
        // Two-character operators first, so `<=` is not read as `<`.
        for comparison in WhereExpression.Comparison.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count }) where take(comparison.rawValue) {
            return comparison
        }
        return nil
    }

    private mutating func take(_ token: String) -> Bool {
        skipSpaces()
        guard peek(token) else { return false }
        position += token.count
        return true
    }

    private func peek(_ token: String) -> Bool {
        let token = Array(token)
        return position + token.count <= characters.count && Array(characters[position..<position + token.count]) == token
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace {
            position += 1
        }
    }

    private func failure(_ what: String, column: Int? = nil) -> InspectorError {
        InspectorError(.usage, "malformed expression at column \(column ?? position + 1): \(what) — e.g. StatsAtom.total > 3 && FilterAtom == \"all\"")
    }
}
