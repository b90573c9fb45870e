import ArgumentParser
import AtomsInspector
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Step: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Step through history interactively.",
        discussion: """
            Commands: next [N] (n), prev [N] (p), goto STEP (g), first, last, show [ATOM] (s), \
            diff [STEP] (d), graph, log (l), find ATOM (f; find -b ATOM searches back), blame ATOM, \
            where EXPR (w; the next step where EXPR becomes true, as find --where; where -b EXPR \
            searches back), cost (what the transaction that led here cost: its phases, its \
            evaluations nested as they ran, its effect and subscriber runs; journals recorded with \
            timing), help (h), quit (q). The prompt shows the position, as [12/340]. At a terminal the line can \
            be edited (Emacs keys), Up/Down walk through earlier lines (kept in \
            $XDG_STATE_HOME/atoms-inspect/history, else ~/.local/state/atoms-inspect/history), Tab completes commands, \
            atom names and last, Enter on an empty line repeats the last n, p, f or w, Ctrl-C cancels the line or stops a \
            long find or where, and Ctrl-D leaves. When stdin is not a terminal the same commands are read line by line, \
            without a prompt or history, so sessions can be scripted. \
            With --tui, a full-screen timeline instead: the position, cause, write site and time; \
            the transactions around the current one; the values at this step, with what it changed \
            and the previous values (NO_COLOR gives marks instead of colours). It needs a terminal.
            """ + " Keys: " + TimelineProgram.keysParagraph
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "The step to start at (0, N, last, last-K).")
    var at: StepSpec = .number(0)

    @Flag(help: "Show a full-screen timeline (on a terminal; keys below).")
    var tui = false

    func run() throws {
        if tui {
            try runInspector { () throws(InspectorError) in
                try TimelineApp.run(open: { () throws(InspectorError) in try openJournal(journal) }, at: at)
            }
            return
        }
        try runInspector { () throws(InspectorError) in
            let session = try StepSession(journal: openJournal(journal), at: at, style: .forOutput())
            let interactive = isatty(STDIN_FILENO) != 0
            printOutput(try session.describePosition())
            if interactive && isatty(STDOUT_FILENO) != 0 {
                // A terminal: line editing, history, Tab, Enter repeating, Ctrl-C and Ctrl-D.
                StepPrompt.run(session, environment: ProcessInfo.processInfo.environment, write: { writeOutput($0.utf8) }, notice: {
                    StandardStream.error.write($0 + "\n")
                })
                return
            }
            while true {
                if interactive {
                    writeOutput(session.prompt.utf8)
                }
                guard let line = readLine() else { break }
                let (output, quit) = session.handle(line)
                printOutput(output)
                if quit { break }
            }
        }
    }
}
