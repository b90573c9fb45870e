/// Builds Graphviz DOT text in the upstream `graphDescription()` layout.
public enum DOT {
    /// `name` in double quotes, with `"` and `\` escaped.
    public static func quoted(_ name: String) -> String {
        var result = "\""
        for character in name {
            if character == "\"" || character == "\\" {
                result.append("\\")
            }
            result.append(character)
        }
        result.append("\"")
        return result
    }

    /// `digraph {}` when there are no statements; otherwise the box-node header and the
    /// statements, de-duplicated and sorted by plain string order, each indented two spaces.
    public static func digraph<S: Sequence<String>>(statements: S) -> String {
        let sorted = Set(statements).sorted()
        guard !sorted.isEmpty else {
            return "digraph {}"
        }
        return "digraph {\n  node [shape=box]\n" + sorted.map { "  " + $0 + "\n" }.joined() + "}"
    }
}
