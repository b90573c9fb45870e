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

/// `atoms-inspect step --tui`: the full-screen timeline on the process's terminal.
package enum TimelineApp {
    /// Runs the timeline until `q`, Ctrl-C or the terminal goes away; the terminal is put
    /// back on every way out (``TerminalMode``).
    ///
    /// - Parameters:
    ///   - open: Opens the journal (called once the terminal is known to be one).
    ///   - step: The step to start at.
    ///   - environment: For `NO_COLOR`.
    /// - Throws: ``InspectorError``: usage (64) when stdin or stdout is not a terminal, the
    ///   journal's errors, and no input (66) when the journal is deleted while shown.
    package static func run(
        open: () throws(InspectorError) -> InspectedJournal,
        at step: StepSpec,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InspectorError) {
        guard isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0 else {
            throw InspectorError(.usage, "step --tui draws on a terminal, and standard \(isatty(STDOUT_FILENO) == 0 ? "output" : "input") is not one — use step without --tui for scripts")
        }
        let colored = Style.forOutput(environment: environment).isColored
        let session = try StepSession(journal: open(), at: step, style: .plain)
        let screen = TerminalScreen()
        try TerminalMode.enter()
        defer { TerminalMode.restore() }
        var size = screen.size()
        let program = try TimelineProgram(session: session, layout: TimelineLayout(columns: size.columns, rows: size.rows))
        screen.draw(TimelineRender.lines(program.model, layout: TimelineLayout(columns: size.columns, rows: size.rows), colored: colored))
        while true {
            // A followed journal is polled ten times a second; otherwise twice, to notice it
            // vanish.
            guard let keys = screen.keys(timeout: program.model.following ? 100 : 500) else { return }
            var changed = false
            var clear = false
            let now = screen.size()
            if screen.takeResize() || now != size {
                size = now
                try program.resize(to: TimelineLayout(columns: size.columns, rows: size.rows))
                changed = true
                clear = true
            }
            if keys.isEmpty {
                changed = try program.tick() || changed
            }
            for key in keys {
                if try program.handle(key) { return }
                changed = true
            }
            if changed {
                screen.draw(TimelineRender.lines(program.model, layout: TimelineLayout(columns: size.columns, rows: size.rows), colored: colored), clearing: clear)
            }
        }
    }
}
