/// Enter on an empty line at the step prompt repeats the last command when it moved or
/// searched (`n`, `p`, `f`, `w`, with their counts and arguments), as gdb does; after any
/// other command an empty line does nothing. ``StepVerb/repeatsOnEnter`` says which.
package struct CommandRepeat: Sendable {
    private var last: String?

    /// Starts with nothing to repeat.
    package init() {}

    /// The command to run for `line`: the last movement or search for an empty line, else
    /// `line` itself (remembered when it moves or searches).
    package mutating func resolve(_ line: String) -> String {
        guard let word = line.split(whereSeparator: \.isWhitespace).first else {
            return last ?? line
        }
        last = StepVerb(spelling: word)?.repeatsOnEnter == true ? line : nil
        return line
    }
}
