import ArgumentParser
import AtomsInspector

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two journals of one scenario and show the first step where they diverge; exit 1 when they do.",
        discussion: "Transactions are aligned by order and atoms matched by identity (type, key, scope); time is ignored. A step diverges when its cause, origin atom, write site, the values or liveness of the atoms it touches, or its graph changes differ."
    )

    @Argument(help: "The first journal (shown as -).")
    var a: String

    @Argument(help: "The second journal (shown as +).")
    var b: String

    @Option(name: .customLong("ignore"), help: "Leave out atoms matching NAME (* globs); repeatable.")
    var ignore: [String] = []

    @Flag(help: "Leave out write sites and subscription locations.")
    var ignoreLocations = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        var diverges = false
        try runInspector { () throws(InspectorError) in
            let options = CompareCommand.Options(ignore: ignore, ignoreLocations: ignoreLocations)
            let result = try CompareCommand.run(openJournal(a), openJournal(b), options: options, json: output.json, style: .forOutput())
            printOutput(result.output)
            diverges = result.diverges
        }
        if diverges {
            throw ExitCode(1)
        }
    }
}
