/// A check on a test context's journal that failed, or could not run: what was checked, the
/// step where it failed, and the journal to open.
public struct JournalCheckFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The check, as called (`checkGraph("max-depth 4")`).
    public let check: String
    /// The step where the check failed, when it failed at one.
    public let step: Int?
    /// The journal checked, when the context records one.
    public let journal: String?
    /// What was found, or what to do.
    public let detail: String

    /// One line: the check, the step, what was found, and the commands that open the journal.
    public var description: String {
        var text = "\(check) failed" + (step.map { " at step \($0)" } ?? "") + ": \(detail)"
        if let journal {
            text += " — journal \(journal): `atoms-inspect step \(journal)`"
            if let step { text += ", `atoms-inspect show \(journal) --at \(step)`" }
        }
        return text
    }
}
