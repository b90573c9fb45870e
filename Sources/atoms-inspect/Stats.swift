import ArgumentParser
import AtomsInspector

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarize a journal: transactions, keyframes, atoms, time span, file size, the atoms changed most (with their writes, equal values included), and how often the program waited for its recorder."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        try runInspector { () throws(InspectorError) in
            printOutput(try StatsCommand.run(openJournal(journal), json: output.json, style: .forOutput()))
        }
    }
}
