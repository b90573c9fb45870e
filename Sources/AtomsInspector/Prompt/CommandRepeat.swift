/// Enter on an empty line at the step prompt repeats the last command when it moved or
/// searched (`n`, `p`, `f`, `w`, with their counts and arguments), as gdb does; after any
/// other command an empty line does nothing.
package struct CommandRepeat: Sendable {
    private var last: String?

    /// Commands an empty line repeats.
    package static let repeatable: Set<String> = ["n", "next", "p", "prev", "previous", "f", "find", "w", "where"]

    /// Starts with nothing to repeat.
    package init() {}

    /// The command to run for `line`: the last movement or search for an empty line, else
    /// `line` itself (remembered when it moves or searches).
    package mutating func resolve(_ line: String) -> String {
        guard let command = line.split(whereSeparator: \.isWhitespace).first.map(String.init) else {
            return last ?? line
        }
        last = Self.repeatable.contains(command) ? line : nil
        return line
    }
}
