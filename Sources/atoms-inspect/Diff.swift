import ArgumentParser
import AtomsInspector
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what differs between two steps: values (line diffs), atoms created and released, edges added and removed."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Argument(help: "The earlier step.")
    var from: StepSpec

    @Argument(help: "The later step.")
    var to: StepSpec

    @Option(help: "Only atoms matching NAME (* globs).")
    var atom: String?

    @Flag(help: "Exit with status 1 when anything differs, as git diff --exit-code.")
    var exitCode = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        var differs = false
        try runInspector { () throws(InspectorError) in
            let result = try DiffCommand.run(openJournal(journal), from: from, to: to, atom: atom, json: output.json, style: .forOutput())
            printOutput(result.output)
            differs = result.differs
        }
        if exitCode && differs {
            throw ExitCode(1)
        }
    }
}
