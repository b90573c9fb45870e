import ArgumentParser
import AtomsInspector

struct Blame: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show why an atom has its value: the step that last changed it, its cause and write site, and the dependency path from the origin atom.",
        discussion: "ATOM is a label, Label[key] for an atom-family member, or a module-qualified type; * globs blame every match. --history lists every change, newest first."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Argument(help: "The atom (* globs).")
    var atom: String

    @Option(help: "The step (0, N, last, last-K).")
    var at: StepSpec = .fromLast(0)

    @Flag(help: "List every change of the atom up to the step, newest first.")
    var history = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        try runInspector { () throws(InspectorError) in
            printOutput(try BlameCommand.run(openJournal(journal), atom: atom, at: at, history: history, json: output.json, style: .forOutput()))
        }
    }
}
