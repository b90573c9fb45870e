import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect report`: one self-contained HTML file with a timeline of the session, the
/// values and graph at any step, and the diff to the step before.
package enum ReportCommand {
    /// The default limit of embedded data: pages much larger load slowly in a browser.
    package static let defaultSizeLimit = 100 << 20

    /// At most this many distinct graphs are drawn by `dot`; the page lays out any others.
    static let maximumDotGraphs = 200

    /// What was written, for the line printed after it.
    package struct Summary: Sendable, Equatable {
        /// The first step shown.
        package let first: Int
        /// The last step shown.
        package let last: Int
        /// The page's size in bytes.
        package let bytes: Int
        /// Distinct graphs in the range, and how many `dot` drew.
        package let graphs: Int
        /// Graphs drawn by `dot` (0 when it is not installed).
        package let drawnByDot: Int
    }

    /// The report page for steps `from...to`.
    ///
    /// - Parameters:
    ///   - from: The first step (default: the journal's first).
    ///   - to: The last step (default: the journal's last).
    ///   - sizeLimit: Embedded bytes beyond which no page is made.
    ///   - graphviz: Where to find `dot`; `nil` makes the page lay out every graph itself.
    /// - Returns: The HTML and a summary.
    /// - Throws: ``InspectorError``: 64 for a bad range or a page over `sizeLimit` (the message
    ///   suggests `--from/--to`), 65 for a damaged journal.
    package static func run(
        _ journal: InspectedJournal, from: StepSpec? = nil, to: StepSpec? = nil,
        sizeLimit: Int = defaultSizeLimit, graphviz: Graphviz? = Graphviz()
    ) throws(InspectorError) -> (html: [UInt8], summary: Summary) {
        let first = try from.map { spec throws(InspectorError) in try journal.step(spec) } ?? journal.reader.firstStep
        let last = try to.map { spec throws(InspectorError) in try journal.step(spec) } ?? journal.reader.lastStep
        guard first <= last else {
            throw InspectorError(.usage, path: journal.path, "--from \(first) is after --to \(last) — give a range whose start comes first")
        }
        var builder = ReportBuilder(journal: journal, first: first, last: last, sizeLimit: sizeLimit)
        var drawn = 0
        let data = try builder.build { graphs in
            let svgs = drawWithDot(graphs.prefix(maximumDotGraphs), graphviz: graphviz)
            drawn = svgs.count { $0 != nil }
            return svgs + Array(repeating: nil, count: graphs.count - svgs.count)
        }
        let html = ReportPage.html(data: data, title: "\(FileText.name(of: journal.path)) — steps \(first)…\(last)")
        return (html, Summary(first: first, last: last, bytes: html.count, graphs: builder.graphs.count, drawnByDot: drawn))
    }

    /// The graphs as SVG, drawn by one `dot` process; every element `nil` when `dot` is not
    /// installed or fails (the page then lays the graphs out itself).
    static func drawWithDot(_ graphs: ArraySlice<String>, graphviz: Graphviz?) -> [String?] {
        let none = [String?](repeating: nil, count: graphs.count)
        guard let graphviz, graphviz.executable != nil, !graphs.isEmpty,
              let output = try? graphviz.render(graphs.joined(separator: "\n"), format: "svg") else {
            return none
        }
        let documents = SVGDocuments.split(String(decoding: output, as: UTF8.self))
        return documents.count == graphs.count ? documents : none
    }
}

/// The `<svg>…</svg>` elements of `dot -Tsvg` output for several graphs, without the XML
/// prologs, doctypes and comments between and inside them.
enum SVGDocuments {
    /// Each `<svg` … `</svg>` in order, with comments removed.
    static func split(_ text: String) -> [String] {
        var documents: [String] = []
        var rest = text[...]
        while let start = rest.firstRange(of: "<svg"), let end = rest[start.upperBound...].firstRange(of: "</svg>") {
            documents.append(withoutComments(String(rest[start.lowerBound..<end.upperBound])))
            rest = rest[end.upperBound...]
        }
        return documents
    }

    private static func withoutComments(_ svg: String) -> String {
        var result = ""
        var rest = svg[...]
        while let open = rest.firstRange(of: "<!--") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "-->") else {
                return result
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}
