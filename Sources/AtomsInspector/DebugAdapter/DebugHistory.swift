import AtomsJournalReader

/// The history a debug session moves through: a journal (`launch`), or a running program's
/// journal where moving also moves the program (`attach`).
///
/// Every move and every console command goes through the step prompt's session
/// (``StepSession``, or ``AttachSession`` over it), so the adapter moves as `step` and
/// `attach` do.
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

    /// A running program's, starting at the present.
    init(program: AttachSession) {
        backing = .program(program)
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

    /// Runs one of the step prompt's commands (`attach`'s, for a program); returns its output.
    func command(_ line: String) -> (output: String, failed: Bool) {
        let output: String
        switch backing {
        case .journal(let session): output = session.handle(line).output
        case .program(let attached): output = attached.handle(line).output
        }
        return (output, output.hasPrefix("error: ") || output.contains("\nerror: "))
    }

    /// Moves to `step` (and the program there).
    func move(to step: Int) throws(InspectorError) {
        guard step != position else { return }
        let (output, failed) = command("goto \(step)")
        if failed {
            // The prompt's text has no file and line: a damaged line is read again for them.
            _ = try journal.state(at: step)
            let message = output.split(separator: "\n").first { $0.hasPrefix("error: ") }.map { String($0.dropFirst(7)) } ?? output
            throw InspectorError(.usage, message)
        }
    }

    /// Moves to the newest step; a program returns to the present.
    func moveToPresent() throws(InspectorError) {
        switch backing {
        case .journal:
            let (output, failed) = command("last")
            if failed { throw InspectorError(.usage, String(output.dropFirst(7))) }
        case .program:
            let (output, failed) = command("live")
            if failed { throw InspectorError(.unavailable, output.replacing("error: ", with: "")) }
        }
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
        _ = attached.handle("live")
        attached.leave()
    }
}
