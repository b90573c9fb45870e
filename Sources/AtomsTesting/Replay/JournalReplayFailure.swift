/// Why a ``JournalReplay`` failed: the first step where today's atoms disagree with the
/// recording, or a journal, atom or value the replay could not use.
///
/// Thrown by ``JournalReplay/init(journal:)`` and ``JournalReplay/run(in:fileID:line:)``; a
/// test that lets it propagate fails with its ``description``.
public struct JournalReplayFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The recorded journal.
    public let journal: String
    /// The step where the replay failed (after that transaction; the first keyframe's step
    /// for the state the journal starts from), when it failed at one.
    public let step: Int?
    /// The cause of the transaction at ``step`` (`set`, `reset`, …).
    public let cause: String?
    /// Where that transaction's write was made (`fileID:line`), when recorded.
    public let writeSite: String?
    /// The atom concerned, as the journal names it (`StatsAtom`, `ItemAtom[3]`).
    public let atom: String?
    /// What went wrong, and what to do.
    public let detail: String
    /// For a value that differs: a line diff, `-` recorded and `+` today.
    public let diff: String?
    /// For a value that differs: the replay's own journal, the recorded transactions up to
    /// ``step`` with today's values there, for `atoms-inspect compare`.
    public let replayedJournal: String?
    /// For ``JournalReplay/expectNever(_:in:budget:journal:fileID:line:)-(_,()->AtomTestContext,_,_,_,_)``:
    /// the shrunk session that reaches the condition.
    public let shrink: JournalShrink?
    /// Whether the failure says that the session never reaches a shrink's condition.
    let neverReached: Bool

    init(
        journal: String, step: Int? = nil, cause: String? = nil, writeSite: String? = nil, atom: String? = nil, detail: String, diff: String? = nil,
        replayedJournal: String? = nil, shrink: JournalShrink? = nil, neverReached: Bool = false
    ) {
        self.journal = journal
        self.step = step
        self.cause = cause
        self.writeSite = writeSite
        self.atom = atom
        self.detail = detail
        self.diff = diff
        self.replayedJournal = replayedJournal
        self.shrink = shrink
        self.neverReached = neverReached
    }

    /// The failure: where, what, the diff, and the command that shows the divergence.
    public var description: String {
        var where_ = "replay of \(journal) failed"
        if let step {
            where_ += " at step \(step)"
            if let cause {
                where_ += " (\(cause)" + (writeSite.map { " at \($0)" } ?? "") + ")"
            }
        }
        var text = where_ + ": " + (atom.map { "\($0) — " } ?? "") + detail
        if let diff {
            text += "\n(- recorded, + today)\n" + diff
        }
        if let replayedJournal {
            text += "\nthe replay's journal: \(replayedJournal) — see the divergence with `atoms-inspect compare \(journal) \(replayedJournal)`"
        }
        return text
    }
}
