import ArgumentParser
import AtomsInspector
import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a self-contained HTML report: a timeline of the session, the values, diff and dependency graph at any step.",
        discussion: """
            The page needs no network: open it from disk in a browser, attach it to a bug report or keep it as \
            a CI artifact. Click or hover the timeline, drag the slider or press ←/→ to move between steps; \
            #step=N in the URL opens step N. Graphs are drawn by Graphviz's dot when it is installed (once \
            per distinct graph), otherwise by the page. Values marked redacted stay redacted. A range whose \
            data would exceed --max-size is refused (exit 64) with a suggested --from.
            """
    )

    @Argument(help: "The journal file (or a bounded journal's folder).")
    var journal: String

    @Option(name: .shortAndLong, help: "The HTML file to write (stdout when omitted and stdout is not a terminal).")
    var output: String?

    @Option(help: "The first step to include (default: the journal's first).")
    var from: StepSpec?

    @Option(help: "The last step to include (default: the journal's last).")
    var to: StepSpec?

    @Option(help: "The most data the page may embed, in bytes or with KB, MB or GB.")
    var maxSize: String = "100MB"

    func run() throws {
        try runInspector { () throws(InspectorError) in
            guard let limit = JournalSizeLimit.parse(maxSize) else {
                throw InspectorError(.usage, "--max-size \(maxSize) is not a size — give bytes, or a number with KB, MB or GB (e.g. 100MB)")
            }
            guard output != nil || isatty(STDOUT_FILENO) == 0 else {
                throw InspectorError(.usage, "report writes HTML — give -o FILE (e.g. -o session.html), or redirect stdout")
            }
            let (html, summary) = try ReportCommand.run(openJournal(journal), from: from, to: to, sizeLimit: limit)
            if let output {
                try OutputPath.write(html, to: output)
                let graphs = summary.drawnByDot > 0 ? "\(summary.graphs) graph\(summary.graphs == 1 ? "" : "s"), \(summary.drawnByDot) drawn by dot" : "\(summary.graphs) graph\(summary.graphs == 1 ? "" : "s"), laid out by the page"
                StandardStream.error.write("wrote \(output): steps \(summary.first)…\(summary.last), \(summary.bytes) bytes, \(graphs)\n")
            } else {
                writeOutput(html)
            }
        }
    }
}
