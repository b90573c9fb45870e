import ArgumentParser
import AtomsInspector

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write journals as three tables (changes, transactions, atoms) for DuckDB, Spark or any SQL engine.",
        discussion: """
            The rows of every journal go into DIR/changes, DIR/transactions and DIR/atoms (.ndjson, .csv or \
            .parquet), each naming its journal by id (file name without extension, @, the time recording \
            started). Schema and queries: docs/EXPORT.md. A journal that cannot be read is named on stderr \
            and left out, the others are exported, and the exit status is that journal's. A DIR that holds \
            files is refused (exit 73) unless --force. --format parquet needs DuckDB (pip install duckdb): \
            exit 69 without it.
            """
    )

    @Argument(help: "The journal files (or bounded journals' folders).")
    var journals: [String]

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The output folder (created when missing).", valueName: "dir"))
    var output = "atoms-export"

    @Option(help: ArgumentHelp("The tables' format: ndjson, csv or parquet.", valueName: "format"))
    var format: ExportFormat = .ndjson

    @Option(help: "The first step to export.")
    var from: StepSpec?

    @Option(help: "The last step to export.")
    var to: StepSpec?

    @Flag(help: "Write into a folder that already holds files, replacing an earlier export's tables.")
    var force = false

    @OptionGroup var options: OutputOptions

    func validate() throws {
        guard !journals.isEmpty else { throw ValidationError("Give at least one journal.") }
    }

    func run() throws {
        var status = ExitStatus.ok
        try runInspector { () throws(InspectorError) in
            let summary = try ExportCommand.run(
                journals, to: output, options: .init(format: format, from: from, to: to, force: force),
                open: openJournal, failure: { StandardStream.error.write($0.description + "\n") }
            )
            printOutput(ExportCommand.render(summary, json: options.json))
            status = summary.status
        }
        if status != .ok {
            throw ExitCode(status.rawValue)
        }
    }
}
