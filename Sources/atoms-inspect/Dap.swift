import ArgumentParser
import AtomsInspector
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Dap: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the Debug Adapter Protocol on stdin and stdout, for editors.",
        discussion: """
            Speaks the Debug Adapter Protocol (Content-Length framed JSON) as lldb-dap does, so an \
            editor steps through a journal's history: launch with "journal" (a file or a bounded \
            journal's folder), "sourceRoot" (the package the write sites resolve against; default: \
            the working directory) and "stopOnEntry"; or attach with "pid" or "socket" to move a \
            running program (docs/CONTROL.md). The one thread is the history, the top frame is the \
            step's write site, the variables are the live atoms; next and stepBack move one step, \
            continue and reverseContinue run to a breakpoint (a line that writes, an atom that \
            changes, a where condition) or to the first or last step. The debug console runs the \
            step prompt's commands, and evaluates a line that is not one as a watch expression. \
            Sources may be paths, file:// URIs or paths relative to sourceRoot. Attached, continue \
            returns the program to the present (its state after its last transaction), the program's \
            new writes refresh the editor (invalidated, or stopped for clients without it), and \
            setVariable and setExpression write a value (JSON) into the program as one set \
            transaction; a journal is history and refuses them. Editor set-ups are in editors/; \
            docs/DEBUG_ADAPTER.md says what it \
            does and does not do. Exits 0 after disconnect, 65 when the framing breaks (a bad \
            Content-Length, a truncated message, input ending without disconnect), 74 when it cannot \
            write.
            """
    )

    func run() throws {
        // A client gone mid-write is a write error (74), not a signal.
        signal(SIGPIPE, SIG_IGN)
        let status = DebugAdapterServer.run(DebugAdapter(), input: STDIN_FILENO, output: STDOUT_FILENO) { line in
            StandardStream.error.write(line + "\n")
        }
        if status != .ok {
            throw ExitCode(status.rawValue)
        }
    }
}
