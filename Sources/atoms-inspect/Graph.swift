import ArgumentParser
import AtomsInspector
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the dependency graph at a step as DOT, or render it to SVG/PNG with Graphviz.",
        discussion: "DOT follows the upstream graphDescription() format; atom-family members are told apart as label[key]. svg and png run Graphviz's dot binary directly (no shell); without it the command exits 69."
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(help: "The step (0, N, last, last-K).")
    var at: StepSpec = .fromLast(0)

    @Option(help: "Output format: dot, svg or png.")
    var format: GraphCommand.Format = .dot

    @Option(name: .shortAndLong, help: "Write to FILE instead of stdout.")
    var output: String?

    func run() throws {
        try runInspector { () throws(InspectorError) in
            let data = try GraphCommand.render(openJournal(journal), at: at, format: format)
            if let output {
                try OutputPath.write(data, to: output)
            } else {
                writeOutput(data)
            }
        }
    }
}
