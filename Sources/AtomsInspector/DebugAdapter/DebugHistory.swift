import AtomsJournalReader

/// The history a debug session moves through: a journal (`launch`), or a running program's
/// journal where moving also moves the program (`attach`).
///
/// Every move and every console line is a ``StepCommand`` that the step prompt's session runs
/// (``StepSession``, or ``AttachSession`` over it), so the adapter moves as `step` and
/// `attach` do and its console is their prompt.
final class DebugHistory {
    private enum Backing {
        case journal(StepSession)
        case program(AttachSession)
    }

    private let backing: Backing

    /// A journal's history, starting at its first step.
    init(journal: InspectedJournal) throws(InspectorError) {
        backing = .journal(try StepSession(journal: journal, at: .number(journal.reader.firstStep)))
    }

    /// Set (on the connection's thread) when the program closes its endpoint or exits.
    private let programEnded = ProgramEnded()

    /// A running program's, starting at the present.
    init(program: AttachSession) {
        backing = .program(program)
        let ended = programEnded
        program.whenProgramExits { ended.set() }
    }

    /// Whether an attached program has closed its endpoint or exited (once: later calls are
    /// `false`).
    func takeProgramEnded() -> Bool {
        programEnded.take()
    }

    /// The step prompt's session.
    var session: StepSession {
        switch backing {
        case .journal(let session): session
        case .program(let attached): attached.session
        }
    }

    /// Whether this is a running program.
    var isProgram: Bool {
        if case .program = backing { return true }
        return false
    }

    /// The program's name and pid, or the journal's path.
    var name: String {
        switch backing {
        case .journal(let session): session.inspectedJournal.path
        case .program(let attached): attached.program
        }
    }

    var journal: InspectedJournal { session.inspectedJournal }
    var position: Int { session.position }
    var state: JournalState { session.currentState }
    var first: Int { journal.reader.firstStep }
    var last: Int { journal.reader.lastStep }

    /// Runs a command of the step vocabulary (`attach`'s, for a program).
    ///
    /// - Throws: ``InspectorError`` as ``StepSession/run(_:)``.
    func run(_ command: StepCommand) throws(InspectorError) -> StepReply {
        switch backing {
        case .journal(let session): try session.run(command)
        case .program(let attached): try attached.run(command)
        }
    }

    /// Runs a line of the step prompt (the debug console); `nil` for a blank line.
    ///
    /// - Throws: ``InspectorError`` for a line that is not a command or a command that fails;
    ///   `quit`, which only the editor's stop button (`disconnect`) does here.
    func command(_ line: String) throws(InspectorError) -> StepReply? {
        guard let command = try StepCommand.parse(line) else { return nil }
        guard command != .quit else {
            throw InspectorError(.usage, "quit does not end a debug session — stop it in the editor (disconnect)")
        }
        return try run(command)
    }

    /// Whether values can be written: a running program at the present.
    var canSet: Bool {
        guard case .program(let attached) = backing else { return false }
        return !attached.isProgramInPast
    }

    /// Writes `value` (JSON) at `path` (an atom or a member of its value) into the running
    /// program, as one new transaction, and moves to it.
    ///
    /// - Throws: ``InspectorError``: for a journal (history cannot be written), and as
    ///   ``AttachSession/run(_:)`` for a program.
    func set(_ path: String, to value: String) throws(InspectorError) -> StepReply {
        guard isProgram else {
            throw InspectorError(.usage, "a journal is history: its values cannot be set — attach to the running program (a pid or socket) to write state")
        }
        return try run(.set(path: path, value: value))
    }

    /// At the present of a running program, moves to its newest step on file; whether the
    /// position moved (never for a journal).
    ///
    /// - Throws: ``InspectorError`` when the journal cannot be read.
    func followPresent() throws(InspectorError) -> Bool {
        guard case .program(let attached) = backing else { return false }
        return try attached.followPresent()
    }

    /// Moves to `step` (and the program there).
    func move(to step: Int) throws(InspectorError) {
        guard step != position else { return }
        _ = try run(.goTo(.number(step)))
    }

    /// Moves to the newest step; a program returns to the present.
    func moveToPresent() throws(InspectorError) {
        _ = try run(isProgram ? .live : .last)
    }

    /// What a program did since the last request (its own writes, the end of a trip to the
    /// past), as text; empty for a journal.
    func notices() -> String {
        guard case .program(let attached) = backing else { return "" }
        return attached.handle("").output
    }

    /// Ends the session: a program goes back to the present and is left running.
    func end() {
        guard case .program(let attached) = backing else { return }
        _ = try? attached.run(.live)
        attached.leave()
    }
}

/// A flag one thread sets and another takes.
private final class ProgramEnded: @unchecked Sendable {
    // Unchecked: the flag is read and written under the lock.
    private let lock = ConditionLock()
    private var isSet = false

    func set() {
        lock.lock()
        isSet = true
        lock.unlock()
    }

    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { isSet = false }
        return isSet
    }
}
