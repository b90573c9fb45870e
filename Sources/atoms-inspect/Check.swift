import ArgumentParser
import AtomsInspector

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check graph-shape rules at a step; exit 1 when any fails (for CI).",
        discussion: "Rules: edge A -> B, no-edge A -> B, node A, no-node A, acyclic, max-depth N, max-nodes N; one per line, # comments, * globs. A malformed rule exits 65 naming file:line."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "The rules file.")
    var rules: String

    @Option(help: "The step (0, N, last, last-K).")
    var at: StepSpec = .fromLast(0)

    @Option(help: "Also write a JUnit XML report (one test case per rule) to FILE.")
    var junit: String?

    @OptionGroup var output: OutputOptions

    func run() throws {
        var passed = true
        try runInspector { () throws(InspectorError) in
            let outcome = try CheckCommand.run(openJournal(journal), rules: rules, at: at, junit: junit, json: output.json, style: .forOutput())
            printOutput(outcome.output)
            passed = outcome.passed
        }
        if !passed {
            throw ExitCode(1)
        }
    }
}
