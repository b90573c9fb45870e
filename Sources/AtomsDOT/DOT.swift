/// Builds Graphviz DOT text in the upstream `graphDescription()` layout.
package enum DOT {
    /// `name` in double quotes, with `"` and `\` escaped, and control characters (a NUL, a
    /// line break) written as a visible `\u{…}`, so that no name can end the string, break
    /// the line or cut the file short for the tools that read it.
    package static func quoted(_ name: String) -> String {
        var result = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"", "\\":
                result.append("\\")
                result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}":
                result.append("\\\\u{\(String(scalar.value, radix: 16, uppercase: true))}")
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        result.append("\"")
        return result
    }

    /// `digraph {}` when there are no statements; otherwise the box-node header and the
    /// statements, de-duplicated and sorted by plain string order, each indented two spaces.
    package static func digraph<S: Sequence<String>>(statements: S) -> String {
        let sorted = Set(statements).sorted()
        guard !sorted.isEmpty else {
            return "digraph {}"
        }
        return "digraph {\n  node [shape=box]\n" + sorted.map { "  " + $0 + "\n" }.joined() + "}"
    }
}
