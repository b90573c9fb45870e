import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect attach`: the `step` REPL over a running program's journal, where moving
/// also moves the program (`jump`), and `live` returns it to the present.
///
/// Every command is ``StepSession``'s; after one that moves (next, prev, goto, first, last,
/// find, where) to a step other than the one the program shows, the program is sent there.
/// The journal is the program's own, so `last` is the present: the newest step it recorded.
/// `live` returns the program to the present and the session to the step the program
/// answered with (the program writes it to the journal before answering); `set` writes a
/// value into the program at the present.
package final class AttachSession {
    private let connection: ControlConnection
    private(set) var session: StepSession
    private let style: Style
    /// Who the program is.
    private let hello: ControlMessages.Hello
    /// The step whose state the program shows.
    private var programShows: Int
    /// The newest step the program has recorded, as far as this session has heard.
    private var programLast: Int
    /// Whether the program shows a step of the past (jumped, not yet back).
    private var isInPast = false
    /// What the program did, taken before a command that failed: shown with the next reply.
    private var pendingNotices: [String] = []

    /// Connects to the endpoint at `path`, opens the program's journal and starts at its last
    /// step (the present).
    ///
    /// - Throws: ``InspectorError``: 69 when the program cannot be reached, 66 or 65 when its
    ///   journal cannot be read.
    package init(socket path: String, style: Style = .plain) throws(InspectorError) {
        connection = try ControlConnection(path: path)
        self.style = style
        hello = try connection.request("hello \(ControlProtocol.version)").decode(ControlMessages.Hello.self)
        session = try StepSession(journal: InspectedJournal(path: hello.journal), at: .fromLast(0), style: style)
        programLast = hello.step
        programShows = hello.step
        // Following is best-effort: a bounded journal's folder cannot be followed.
        _ = try? connection.request("follow")
        let state = try connection.request("state").decode(ControlMessages.State.self)
        programShows = state.shows ?? state.step
    }

    /// The program's name and pid: `sample-numpad (pid 123)`.
    package var program: String {
        "\(hello.program) (pid \(hello.pid))"
    }

    /// `attached to sample-numpad (pid 123), journal /tmp/j.jsonl`.
    package var greeting: String {
        "attached to \(hello.program) (pid \(hello.pid)), journal \(hello.journal)"
    }

    /// The prompt: the position, as `[12/340] `.
    package var prompt: String {
        session.prompt
    }

    /// The current step.
    package var position: Int {
        session.position
    }

    /// Whether the program shows a step of its past (jumped there, not yet back).
    package var isProgramInPast: Bool {
        isInPast
    }

    /// Commands and what they do, for `help`.
    package static let help = StepVerb.help(runningProgram: true)

    /// Calls `handler` (on another thread) when the program closes the connection or exits.
    package func whenProgramExits(_ handler: @escaping @Sendable () -> Void) {
        connection.whenClosed(handler)
    }

    /// Handles one typed line; returns what to print (after what the program did since the
    /// last line) and whether to quit.
    package func handle(_ line: String) -> (output: String, quit: Bool) {
        let command: StepCommand?
        do {
            command = try StepCommand.parse(line)
        } catch {
            return ((takeNotices() + [StepSession.errorText(error)]).joined(separator: "\n"), false)
        }
        guard let command else {
            return (takeNotices().joined(separator: "\n"), false)
        }
        if command == .quit {
            let notes = takeNotices()
            connection.leave()
            return (notes.joined(separator: "\n"), true)
        }
        let reply: String
        do {
            reply = try run(command).text
        } catch {
            reply = StepSession.errorText(error)
        }
        return (reply, false)
    }

    /// Runs one command of the step vocabulary: one that moves sends the program to the step
    /// it reached; `live` returns it to the present. The reply begins with what the program
    /// did since the last command.
    ///
    /// - Throws: ``InspectorError`` as ``StepSession/run(_:)``.
    package func run(_ command: StepCommand) throws(InspectorError) -> StepReply {
        var notes = takeNotices()
        var reply: StepReply
        do {
            switch command {
            case .live:
                reply = StepReply(try returnToPresent())
            case .set(let path, let value):
                reply = StepReply(try set(path, to: value))
            case .help:
                reply = StepReply(Self.help)
            default:
                reply = try session.run(command)
                if command == .last && !isInPast {
                    // The newest step on file is the program's state (or one it has written past).
                    programShows = session.position
                } else if command.verb.moves, session.position != programShows {
                    reply.text += jump(to: session.position)
                }
            }
        } catch {
            // Shown with the error, by the next reply.
            pendingNotices = notes
            throw error
        }
        notes.append(reply.text)
        reply.text = notes.filter { !$0.isEmpty }.joined(separator: "\n")
        return reply
    }

    /// Ends the session: tells the program, which goes on as it is.
    package func leave() {
        connection.leave()
    }

    private func jump(to step: Int) -> String {
        do {
            let moved = try connection.request("jump \(step)").decode(ControlMessages.Moved.self)
            programShows = moved.step
            if let recorded = moved.recorded {
                programLast = max(programLast, recorded)
                isInPast = true
            }
            return describe(moved, verb: "the program shows step \(moved.step)")
        } catch {
            return "\nerror: the program did not move: \(error.message)"
        }
    }

    private func returnToPresent() throws(InspectorError) -> String {
        let moved = try connection.request("live").decode(ControlMessages.Moved.self)
        let present = moved.recorded ?? moved.step
        programLast = max(programLast, present)
        isInPast = false
        let output = try moveToLast(atLeast: present)
        return (moved.recorded == nil ? "the program is in the present" : "back to the present (step \(moved.step))") + describe(moved, verb: nil) + "\n" + output
    }

    /// Moves the session to the journal's last step, which holds `step` at least: the
    /// program wrote it to the file before it answered.
    private func moveToLast(atLeast step: Int) throws(InspectorError) -> String {
        let output = try session.run(.last).text
        programShows = session.position
        guard session.position >= step else {
            throw InspectorError(.unavailable, path: hello.journal, "the journal ends at step \(session.position), but the program is at step \(step) — type last to read it again")
        }
        return output
    }

    /// At the present, follows the program's own new transactions: moves to the newest step
    /// on file. Returns whether the position moved.
    ///
    /// - Throws: ``InspectorError`` when the journal cannot be read.
    package func followPresent() throws(InspectorError) -> Bool {
        let notices = takeNotices()
        pendingNotices = notices
        guard !isInPast, programLast > session.position else { return false }
        let before = session.position
        _ = try session.run(.last)
        programShows = session.position
        return session.position != before
    }

    /// Writes `text` (JSON) at `path` (an atom or a member of its value) into the program at
    /// the present, as one `inspector` transaction, and moves to its step.
    private func set(_ path: String, to text: String) throws(InspectorError) -> String {
        guard !isInPast else {
            throw InspectorError(.usage, "the program shows step \(programShows) of its past — return to the present (live) and set again")
        }
        // The present as the program has it: `live` answers once its last step is on file.
        let present = try connection.request("live").decode(ControlMessages.Moved.self)
        _ = try moveToLast(atLeast: present.recorded ?? present.step)
        let write = try ValueWrite(path: path, value: text, in: session.currentState, journal: hello.journal)
        let request = ControlProtocol.setRequest(.init(atom: write.atom.identityKey, value: write.value))
        let written = try connection.request(request).decode(ControlMessages.Written.self)
        programLast = max(programLast, written.recorded)
        let output = try moveToLast(atLeast: written.recorded)
        return style.dim("→ the program set \(written.atom), recorded as step \(written.recorded)") + "\n" + output
    }

    private func describe(_ moved: ControlMessages.Moved, verb: String?) -> String {
        var text = verb.map { "\n" + style.dim("→ " + $0 + (moved.recorded.map { ", recorded as step \($0)" } ?? "")) } ?? ""
        if verb == nil, let recorded = moved.recorded {
            text += style.dim(", recorded as step \(recorded)")
        }
        for skipped in moved.skipped {
            text += "\n" + style.dim("  not restored: \(skipped.atom) — \(skipped.reason)")
        }
        return text
    }

    /// What happened in the program since the last command: its own writes, the end of an
    /// excursion, the endpoint closing.
    private func takeNotices() -> [String] {
        var notices: [String] = []
        var recorded = 0
        for event in connection.takeEvents() {
            switch event.name {
            case "journal":
                if let step = ControlMessages.transactionStep(of: event.body), step > programLast {
                    programLast = step
                    recorded += 1
                    if !isInPast { programShows = step }
                }
            case "excursion-ended":
                if let ended = try? event.decode(ControlMessages.ExcursionEnded.self) {
                    programShows = ended.step
                    isInPast = false
                    programLast = max(programLast, ended.step)
                    notices.append(style.dim("the program wrote (step \(ended.step), \(ended.cause)): it is back in the present"))
                }
            case "missed":
                notices.append(style.dim("some journal lines were not sent in time; last reads them from the journal"))
            case "closing":
                notices.append(style.dim("the program is closing its control endpoint"))
            default:
                break
            }
        }
        if recorded > 0 {
            notices.insert(style.dim("the program recorded \(recorded) new transaction\(recorded == 1 ? "" : "s") (last: \(programLast))"), at: 0)
        }
        defer { pendingNotices = [] }
        return pendingNotices + notices
    }
}
