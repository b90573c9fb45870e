import ArgumentParser
import AtomsInspector
import Foundation

struct Step: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Step through history interactively.",
        discussion: """
            Commands: next [N] (n), prev [N] (p), goto STEP (g), first, last, show [ATOM] (s), \
            diff [STEP] (d), graph, log (l), find ATOM (f; find -b ATOM searches back), blame ATOM, \
            where EXPR (w; the next step where EXPR becomes true, as find --where; where -b EXPR \
            searches back), help (h), quit (q). The prompt shows the position, as [12/340]. At a terminal the line can \
            be edited (Emacs keys), Up/Down walk through earlier lines (kept in \
            $XDG_STATE_HOME/atoms-inspect/history, else ~/.local/state/atoms-inspect/history), Tab completes commands, \
            atom names and last, Enter on an empty line repeats the last n, p, f or w, Ctrl-C cancels the line or stops a \
            long find or where, and Ctrl-D leaves. When stdin is not a terminal the same commands are read line by line, \
            without a prompt or history, so sessions can be scripted.
            """
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "The step to start at (0, N, last, last-K).")
    var at: StepSpec = .number(0)

    func run() throws {
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
