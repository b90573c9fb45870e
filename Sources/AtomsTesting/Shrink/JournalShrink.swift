import Foundation

/// What ``JournalReplay/shrink(until:in:budget:journal:fileID:line:)`` found: the fewest
/// recorded transactions (and the smallest values) under which a condition becomes true,
/// with the shrunk session written as a journal.
public struct JournalShrink: Sendable, Equatable, CustomStringConvertible {
    /// One recorded transaction the shrunk session keeps.
    public struct Step: Sendable, Equatable {
        /// Its step in the original journal.
        public let step: Int
        /// Its recorded cause (`set`, `async-result`, …).
        public let cause: String
        /// Where its write was made (`fileID:line`), when recorded.
        public let writeSite: String?
        /// The atoms it writes and what each takes, shrunk: `[("TodosAtom", "[{…}]")]`;
        /// `reset` for a reset, a phase as `success(json)`, `failure(error)` or `suspending`.
        public let writes: [Write]
    }

    /// One atom a kept transaction writes, and the value it takes.
    public struct Write: Sendable, Equatable {
        /// The atom, as today's code names it (`TodosAtom`, `ItemAtom[3]`).
        public let atom: String
        /// The value it takes in the shrunk session, as JSON (or as described above).
        public let value: String
        /// Whether shrinking made the value smaller than the recorded one.
        public let isShrunk: Bool
    }

    /// The original journal.
    public let journal: String
    /// The condition, as given.
    public let condition: String
    /// The transactions the replay drives in the original session.
    public let recordedTransactions: Int
    /// The kept transactions, in recorded order; empty when the condition holds before any.
    public let kept: [Step]
    /// Trials run: replays of a part of the session (a value that does not decode costs none).
    public let trials: Int
    /// Seconds the shrink took.
    public let seconds: Double
    /// Whether the search ran to its end (the kept transactions are 1-minimal and each value
    /// as small as the steps go); `false` when the budget ran out first.
    public let isComplete: Bool
    /// The shrunk session, recorded by replaying the kept transactions once more; every
    /// command reads it, and the condition holds at its last step.
    public let shrunkJournal: String?
    /// Why the shrunk session could not be written, when it could not.
    public let shrunkJournalError: String?

    /// The report: the kept steps with their write sites and values, the counts, and the
    /// shrunk journal with the command that opens it.
    public var description: String {
        var lines: [String] = []
        let count = kept.count == 1 ? "1 transaction" : "\(kept.count) transactions"
        lines.append("\(condition) is reached after \(count) of the \(recordedTransactions) the replay drives in \(journal) (\(trials) trials, \(String(format: "%.2f", seconds)) s)")
        if !isComplete {
            lines.append("stopped early: the budget ran out; this is the smallest session found so far, not yet 1-minimal")
        }
        if kept.isEmpty {
            lines.append("  the condition holds before any recorded write: the atoms' first values reach it")
        }
        for step in kept {
            lines.append("  step \(step.step) \(step.cause)" + (step.writeSite.map { " at \($0)" } ?? ""))
            for write in step.writes {
                lines.append("    \(write.atom) = \(write.value)" + (write.isShrunk ? "  (shrunk)" : ""))
            }
        }
        if let shrunkJournal {
            lines.append("the shrunk session: \(shrunkJournal) — step through it with `atoms-inspect step \(shrunkJournal)`")
        } else if let shrunkJournalError {
            lines.append("the shrunk session could not be written: \(shrunkJournalError)")
        }
        return lines.joined(separator: "\n")
    }
}
