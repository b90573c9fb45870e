import ArgumentParser
import AtomsInspector

struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Where the time went: atom evaluations (total, self, max, wasted), the slowest transactions, async tasks.",
        discussion: """
            Reads the timing lines a recorder writes from journal format 4.1 on. Atoms are sorted by self time, \
            as pprof's top lists functions; an evaluation is wasted when its atom was written a value equal to \
            the one it had. A journal recorded without timing exits 65. --trace writes the Trace Event Format \
            (JSON) for Perfetto's UI (ui.perfetto.dev) or chrome://tracing. Only the readers of timing (profile and its --trace, \
            the step prompt's cost, the report's cost lane) parse timing lines; every other command skips them by their \
            prefix, so a timing line damaged after its prefix is named (exit 65) by those readers alone.
            """
    )

    @Argument(help: "The journal file (or a bounded journal's folder).")
    var journal: String

    @Option(help: "The first step profiled.")
    var from: StepSpec?

    @Option(help: "The last step profiled.")
    var to: StepSpec?

    @Option(help: "Only atoms matching NAME (* globs) and the transactions that evaluated them.")
    var atom: String?

    @Option(help: "How many of the slowest transactions to list.")
    var slowest = 10

    @Option(help: "Also write a trace (Trace Event Format, JSON) to PATH.")
    var trace: String?

    @OptionGroup var output: OutputOptions

    func run() throws {
        try runInspector { () throws(InspectorError) in
            let journal = try openJournal(journal)
            let options = ProfileCommand.Options(from: from, to: to, atom: atom, slowest: slowest, json: output.json)
            let text = try ProfileCommand.run(journal, options: options)
            if let trace {
                try OutputPath.write(ProfileCommand.trace(journal, options: options), to: trace)
            }
            printOutput(text)
        }
    }
}
