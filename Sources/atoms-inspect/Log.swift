import ArgumentParser
import AtomsInspector
import Foundation

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List transactions: step, time, cause, atoms changed, source location.",
        discussion: "When stdout is not a terminal: no header, no colour, exactly one line per transaction."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "Only transactions that change, create or release atoms matching NAME (* globs).")
    var atom: String?

    @Option(help: "The first step to list.")
    var from: StepSpec?

    @Option(help: "The last step to list.")
    var to: StepSpec?

    @OptionGroup var output: OutputOptions

    func run() throws {
        try runInspector { () throws(InspectorError) in
            let journal = try openJournal(journal)
            let terminal = isatty(STDOUT_FILENO) != 0
            let options = LogCommand.Options(atom: atom, from: from, to: to, json: output.json, header: terminal && !output.json, style: .forOutput())
            if output.json {
                printOutput(try LogCommand.run(journal, options: options))
            } else {
                // Streamed: a long journal's log is never held in memory.
                var out = BufferedOutput()
                try LogCommand.write(journal, options: options) { out.write(line: $0) }
                out.flush()
            }
        }
    }
}
