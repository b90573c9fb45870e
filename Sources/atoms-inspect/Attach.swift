import ArgumentParser
import AtomsInspector
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
private let systemExit = Glibc.exit
#elseif canImport(Darwin)
import Darwin
private let systemExit = Darwin.exit
#endif

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Step a running program through its history, live.",
        discussion: """
            Connects to the control endpoint of a program that records a journal (a sample's \
            --control, or JournalRecorder.listen()) and runs the step commands over its journal; \
            moving (next, prev, goto, first, last, find, where) also moves the program: its atoms \
            take their recorded values at the step, recorded as a restore transaction. live returns \
            it to its values before the first jump; a write of the program's own ends the trip too. \
            last is the present. At the present, set PATH = JSON writes a value into the program as \
            one transaction whose cause is inspector (set TodosAtom[0].isCompleted = true); a value \
            that does not decode as the atom's type is refused and nothing is written. With no argument, attaches to the only program with an endpoint; \
            --list lists them. At a terminal the prompt edits lines, keeps history and completes with Tab, as step's does; piped, the commands are read line by line, as step does. \
            The protocol is in docs/CONTROL.md. Exits 69 when the program cannot be reached, 0 when it exits.
            """
    )

    @Argument(help: "The program's control socket, or its pid (default: the only one running).")
    var target: String?

    @Flag(help: "List the control endpoints of running programs of this user (pid, program, socket).")
    var list = false

    func run() throws {
        try runInspector { () throws(InspectorError) in
            if list {
                printOutput(AttachTarget.listing())
                return
            }
            let session = try AttachSession(socket: AttachTarget.socketPath(for: target), style: .forOutput())
            let program = session.program
            session.whenProgramExits {
                StandardStream.error.write("atoms-inspect: \(program) closed its control endpoint or exited — the session ends\n")
                systemExit(ExitStatus.ok.rawValue)
            }
            let interactive = isatty(STDIN_FILENO) != 0
            StandardStream.error.write(session.greeting + "\n")
            printOutput((try? session.run(.last).text) ?? "")
            if interactive && isatty(STDOUT_FILENO) != 0 {
                // A terminal: the step prompt's line editing, history, Tab and Enter repeating.
                StepPrompt.run(session, environment: ProcessInfo.processInfo.environment, write: { writeOutput($0.utf8) }, notice: {
                    StandardStream.error.write($0 + "\n")
                })
                session.leave()
                return
            }
            while true {
                if interactive {
                    writeOutput(session.prompt.utf8)
                }
                guard let line = readLine() else {
                    session.leave()
                    break
                }
                let (output, quit) = session.handle(line)
                printOutput(output)
                if quit { break }
            }
        }
    }
}
