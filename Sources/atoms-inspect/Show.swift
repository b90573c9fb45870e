import ArgumentParser
import AtomsInspector

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every live atom's value at a step, marking redacted and non-restorable values."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "The step (0, N, last, last-K).")
    var at: StepSpec = .fromLast(0)

    @Option(help: "Only atoms matching NAME (* globs).")
    var atom: String?

    @OptionGroup var output: OutputOptions

    func run() throws {
        try runInspector { () throws(InspectorError) in
            printOutput(try ShowCommand.run(openJournal(journal), at: at, atom: atom, json: output.json, style: .forOutput()))
        }
    }
}
