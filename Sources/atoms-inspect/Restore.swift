import ArgumentParser
import AtomsInspector

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the state at a step as a state file that a program loads at start (AtomStore.loadState(from:)).",
        discussion: "Lists the atoms that could not be included (redacted, not Codable, asynchronous) and why."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "The step (0, N, last, last-K).")
    var at: StepSpec

    @Option(name: .shortAndLong, help: "The state file to write.")
    var output: String

    @OptionGroup var options: OutputOptions

    func run() throws {
        try runInspector { () throws(InspectorError) in
            printOutput(try RestoreCommand.run(openJournal(journal), at: at, output: output, json: options.json, style: .forOutput()))
        }
    }
}
