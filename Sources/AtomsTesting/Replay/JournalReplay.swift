import Atoms
import AtomsInspector
import AtomsJournal

/// A recorded session run again against today's atoms, as a regression test.
///
/// Name the atoms the journal *drives*, whose recorded writes are applied (a `set`, `modify` or
/// `inspector` write as the recorded value, a `reset` as a reset, a `restore` as the restored
/// values), and the atoms it *checks*: after each replayed transaction, today's value, in the
/// form the recorder writes it, must equal the recorded one wherever the journal holds it. The
/// first step where they differ fails with a ``JournalReplayFailure`` naming the step, the
/// transaction's cause and write site, the atom and a line diff, and keeps the replay's journal
/// for `atoms-inspect compare`.
///
/// A journal that starts mid-session (a flight recorder's dump, a bounded journal whose first
/// segments were dropped) starts from its first keyframe: the driven atoms take its values.
/// Atoms are matched by their module-qualified type and key, at the root (not in scopes).
///
/// ## Example
/// ```swift
/// @Test(.atomJournal) @MainActor func todoSessionStillBehaves() throws {
///     let replay = try JournalReplay(journal: "Fixtures/todo.jsonl")
///     replay.drive(TodosAtom()); replay.drive(FilterAtom())
///     replay.check(StatsAtom()); replay.check(FilteredTodosAtom())
///     replay.check(ItemAtom.self) { key in Int(key).map(ItemAtom.init(id:)) }
///     try replay.run(in: AtomTestContext())
/// }
/// ```
@MainActor
public final class JournalReplay {
    /// The recorded journal's path.
    public var path: String { journal.path }

    private let journal: InspectedJournal
    private var atoms: [ReplayedAtom] = []

    /// Opens a recorded journal (a file, or a bounded journal's folder), relative to the
    /// current directory (the package's, under `swift test`).
    ///
    /// - Throws: ``JournalReplayFailure`` naming the file (and line) when it cannot be read or
    ///   is not a journal.
    public init(journal path: String) throws(JournalReplayFailure) {
        do {
            journal = try InspectedJournal(path: path)
        } catch {
            throw JournalReplayFailure(journal: path, detail: error.description)
        }
    }

    /// Applies the recorded writes of a state atom.
    public func drive<Node: StateAtom>(_ atom: Node) where Node.Produced: Decodable {
        atoms.append(.driving(atom))
    }

    /// Applies the recorded writes of every member of a family of state atoms; `key` makes
    /// the member from the key the journal recorded (`{ key in Int(key).map(ItemAtom.init(id:)) }`).
    public func drive<Node: StateAtom>(_ family: Node.Type, key: @escaping (String) -> Node?) where Node.Produced: Decodable {
        atoms.append(.driving(family, key: key))
    }

    /// Delivers a task atom's recorded results instead of running its task: its `.phase`
    /// takes each recorded phase at its recorded step (an `async-result` or `refresh`, or
    /// `.suspending` where a recorded write restarted it), a success decoded as today's
    /// `Success`, a failure as a ``RecordedFailure`` saying what the recorded error said.
    /// Today's `value(context:)` never runs: no network in a replay. Code that awaits the task
    /// itself gets the recorded outcome once it is delivered.
    ///
    /// ## Example
    /// ```swift
    /// replay.drive(SearchMoviesAtom())        // or, the same: replay.drive(SearchMoviesAtom().phase)
    /// replay.check(SearchResultsAtom())       // derived from the phase: computed by today's code
    /// ```
    public func drive<Node: TaskAtom>(_ atom: Node) where Node.Success: Decodable {
        drive(atom.phase)
    }

    /// Delivers a throwing task atom's recorded results instead of running its task; see
    /// ``drive(_:)-(TaskAtom)``.
    public func drive<Node: ThrowingTaskAtom>(_ atom: Node) where Node.Success: Decodable {
        drive(atom.phase)
    }

    /// Delivers the recorded phases of a task atom's `.phase`; its task never runs.
    public func drive<Base: Atom, Success: Decodable & Sendable>(_ atom: ModifiedAtom<Base, TaskPhaseModifier<Success, Never>>) {
        atoms.append(.delivering(atom) {
            ReplayedMember(
                delivering: atom, initial: .suspending, settles: RecordedPhase.settles,
                decoded: { entry in try RecordedPhase.decoded(entry, as: AsyncPhase<Success, Never>.self) },
                alsoOverride: { context, held in
                    context.override(atom.base) { _ in Task { await RecordedPhase.outcome(of: held).get() } }
                }
            )
        })
    }

    /// Delivers the recorded phases of a throwing task atom's `.phase`; its task never runs.
    public func drive<Base: Atom, Success: Decodable & Sendable>(_ atom: ModifiedAtom<Base, TaskPhaseModifier<Success, any Error>>) {
        atoms.append(.delivering(atom) {
            ReplayedMember(
                delivering: atom, initial: .suspending, settles: RecordedPhase.settles,
                decoded: { entry in try RecordedPhase.decoded(entry, as: AsyncPhase<Success, any Error>.self) },
                alsoOverride: { context, held in
                    context.override(atom.base) { _ in Task { try await RecordedPhase.outcome(of: held).get() } }
                }
            )
        })
    }

    /// Delivers the recorded phases of an atom whose value is an ``AsyncPhase`` (an
    /// `AsyncPhaseAtom`, `AsyncSequenceAtom` or `PublisherAtom`): each recorded phase arrives at
    /// its recorded step, and today's work (the sequence, the publisher) never starts.
    public func drive<Node: Atom, Success: Decodable & Sendable, Failure: Error>(_ atom: Node) where Node.Produced == AsyncPhase<Success, Failure> {
        atoms.append(.delivering(atom) {
            ReplayedMember(
                delivering: atom, initial: .suspending, settles: RecordedPhase.settles,
                decoded: { entry in try RecordedPhase.decoded(entry, as: AsyncPhase<Success, Failure>.self) }
            )
        })
    }

    /// Delivers the recorded values of an atom that is not a state (a debounced value such as
    /// `QueryAtom().debounce(for: 0.3)`, or a derived atom to stand in for): each recorded
    /// change arrives at its recorded step, without waiting real time, and today's producer
    /// never runs.
    public func drive<Node: Atom>(_ atom: Node) where Node.Produced: Decodable {
        atoms.append(.delivering(atom) {
            ReplayedMember(delivering: atom, decoded: { entry in
                guard let json = entry.v, entry.phase == nil, entry.redacted != true else {
                    throw RecordedPhase.Mismatch(description: "its recorded value \(entry.unwritableReason ?? "is not JSON")")
                }
                return try RecordedValueSeeds.decoded(json, as: Node.Produced.self)
            })
        })
    }

    /// Reads an atom after every replayed transaction, for a shrink's condition
    /// (``shrink(until:in:budget:journal:fileID:line:)``), without comparing it with the
    /// recording.
    public func watch<Node: Atom>(_ atom: Node) {
        atoms.append(.watching(atom))
    }

    /// Compares today's value of an atom with the recorded one after every step.
    public func check<Node: Atom>(_ atom: Node) {
        atoms.append(.checking(atom))
    }

    /// Compares today's values of every member of a family with the recorded ones; `key` makes
    /// the member from the key the journal recorded.
    public func check<Node: Atom>(_ family: Node.Type, key: @escaping (String) -> Node?) {
        atoms.append(.checking(family, key: key))
    }

    /// Replays the journal in `context`: watches the driven and checked atoms from the
    /// caller's line, applies each recorded transaction's writes at its recorded write site,
    /// and compares the checked atoms.
    ///
    /// - Parameters:
    ///   - context: A fresh context: the replay starts from the state it holds.
    /// - Throws: ``JournalReplayFailure`` at the first value that differs, and for an atom the
    ///   journal never declares, a recorded value that no longer decodes as today's type, a
    ///   family key the test cannot map, or a damaged journal (naming its `file:line`).
    public func run(in context: AtomTestContext, fileID: String = #fileID, line: UInt = #line) throws(JournalReplayFailure) {
        let session = try ReplaySession(journal: journal, atoms: atoms, context: context, location: SourceLocation(fileID: fileID, line: line))
        do {
            try session.run()
        } catch {
            // An atom the replay never met may be one the journal never declares (a typo, a
            // type moved to another module): that is the failure to report.
            if !session.matchedEvery { try checkDeclared() }
            throw error
        }
        // The replay met every declaration: an atom it never matched is never declared.
        if !session.matchedEvery { try checkDeclared() }
    }

    /// Finds the fewest recorded transactions, and then the smallest values, under which
    /// `condition` becomes true, and writes them as a shrunk journal.
    ///
    /// Each trial makes a fresh context with `makeContext`, watches the atoms named, and
    /// replays a part of the driven transactions in recorded order, each write taking its
    /// recorded whole value (an asynchronous atom its recorded result); after each one it
    /// evaluates `condition` on today's values. What the replay does not drive runs as today's
    /// code does (derived atoms, effects' writes), so a bug that needs a sequence keeps it.
    /// The part kept is **1-minimal** (delta debugging): without any one more of its
    /// transactions the condition never holds. Then each kept value is shrunk while the
    /// condition still holds and the value still decodes: elements and entries removed
    /// (1-minimal too), strings shortened, numbers moved toward 0, optionals made `nil`.
    /// Checked atoms are only read here, never compared with the recording.
    ///
    /// ## Example
    /// ```swift
    /// let replay = try JournalReplay(journal: "Fixtures/todo.jsonl")
    /// replay.drive(TodosAtom()); replay.watch(StatsAtom())
    /// let shrunk = try replay.shrink(until: "StatsAtom.total != TodosAtom.count", in: AtomTestContext.init)
    /// print(shrunk)  // the kept steps, their write sites and values, the shrunk journal
    /// ```
    ///
    /// - Parameters:
    ///   - condition: `find --where`'s language (`StatsAtom.total > 3 && FilterAtom == "all"`),
    ///     naming atoms the replay drives, checks or watches.
    ///   - makeContext: Makes each trial's context (overrides registered there hold in every
    ///     trial).
    ///   - budget: When to stop searching (``ShrinkBudget/default``: 5,000 trials or 60 s);
    ///     the result says when it stopped early.
    ///   - journal: Where the shrunk journal goes; by default beside the test's journals,
    ///     named after the test (`….shrunk.jsonl`).
    /// - Returns: The kept steps, the counts and the shrunk journal.
    /// - Throws: ``JournalReplayFailure`` for a condition that does not parse (naming the
    ///   column) or names an atom the replay neither drives, checks nor watches, a session
    ///   that never reaches the condition, a recorded value that no longer decodes, or an atom
    ///   the journal never declares.
    public func shrink(
        until condition: String, in makeContext: @escaping @MainActor () -> AtomTestContext, budget: ShrinkBudget = .default,
        journal output: String? = nil, fileID: String = #fileID, line: UInt = #line
    ) throws(JournalReplayFailure) -> JournalShrink {
        try checkDeclared()
        let location = SourceLocation(fileID: fileID, line: line)
        let bindings = ReplayBindings(atoms)
        let session = try DrivenSession(journal: journal, bindings: bindings)
        let compiled = try ShrinkCondition(condition, journal: journal, declarations: session.declarations, bindings: bindings)
        let path: String?
        do {
            path = try output ?? TestJournalFolder.path(for: TestName.current(creatingAt: location) + ".shrunk", in: ReplayedJournal.folder(for: nil))
        } catch {
            path = nil
        }
        return try ShrinkSession(journal: journal, session: session, condition: compiled, makeContext: makeContext, budget: budget, location: location).run(writingTo: path)
    }

    /// ``shrink(until:in:budget:journal:fileID:line:)`` with a context made by
    /// `AtomTestContext.init` (given the shrink's own `#fileID` and `#line`).
    public func shrink(
        until condition: String, in makeContext: @escaping @MainActor (String, UInt) -> AtomTestContext, budget: ShrinkBudget = .default,
        journal output: String? = nil, fileID: String = #fileID, line: UInt = #line
    ) throws(JournalReplayFailure) -> JournalShrink {
        try shrink(until: condition, in: { makeContext(fileID, line) }, budget: budget, journal: output, fileID: fileID, line: line)
    }

    /// A regression test's check: passes when replaying the session never makes `condition`
    /// true (the bug is fixed); otherwise shrinks the session and fails with the kept steps
    /// and the shrunk journal (see ``shrink(until:in:budget:journal:fileID:line:)``).
    ///
    /// ## Example
    /// ```swift
    /// @Test func theTotalNeverDriftsFromTheList() throws {
    ///     let replay = try JournalReplay(journal: "Fixtures/bug-report.jsonl")
    ///     replay.drive(TodosAtom()); replay.watch(StatsAtom())
    ///     try replay.expectNever("StatsAtom.total != TodosAtom.count", in: AtomTestContext.init)
    /// }
    /// ```
    ///
    /// - Throws: ``JournalReplayFailure`` while the condition is reached (its ``JournalReplayFailure/shrink``
    ///   holds the result), and for the bad input `shrink` names.
    public func expectNever(
        _ condition: String, in makeContext: @escaping @MainActor (String, UInt) -> AtomTestContext, budget: ShrinkBudget = .default,
        journal output: String? = nil, fileID: String = #fileID, line: UInt = #line
    ) throws(JournalReplayFailure) {
        try expectNever(condition, in: { makeContext(fileID, line) }, budget: budget, journal: output, fileID: fileID, line: line)
    }

    /// ``expectNever(_:in:budget:journal:fileID:line:)-(_,(String,UInt)->AtomTestContext,_,_,_,_)``
    /// with a context made by a closure.
    public func expectNever(
        _ condition: String, in makeContext: @escaping @MainActor () -> AtomTestContext, budget: ShrinkBudget = .default,
        journal output: String? = nil, fileID: String = #fileID, line: UInt = #line
    ) throws(JournalReplayFailure) {
        let shrunk: JournalShrink
        do {
            shrunk = try shrink(until: condition, in: makeContext, budget: budget, journal: output, fileID: fileID, line: line)
        } catch where error.neverReached {
            return
        }
        let last = shrunk.kept.last
        throw JournalReplayFailure(
            journal: journal.path, step: last?.step, cause: last?.cause, writeSite: last?.writeSite, atom: nil,
            detail: "the condition \(ShrinkCondition.quoted(condition)) is reached — shrunk:\n" + shrunk.description, shrink: shrunk
        )
    }

    /// Fails unless the journal declares every atom named (a member, for a family).
    @discardableResult
    private func checkDeclared() throws(JournalReplayFailure) -> [Int: AtomDeclaration] {
        let declarations: [Int: AtomDeclaration]
        do {
            declarations = try journal.declarations(through: journal.reader.lastStep)
        } catch {
            throw JournalReplayFailure(journal: journal.path, detail: error.description)
        }
        for atom in atoms where !declarations.values.contains(where: atom.matches) {
            let declared = Set(declarations.values.map(\.type)).sorted().joined(separator: ", ")
            throw JournalReplayFailure(
                journal: journal.path, atom: atom.name,
                detail: "the journal never declares \(atom.isFamily ? "a member of " : "")\(atom.typeName)\(atom.key.map { "[\($0)]" } ?? "") — it declares \(declared.isEmpty ? "no atoms" : declared); check the atom's type and module, or leave it out of the replay"
            )
        }
        return declarations
    }
}
