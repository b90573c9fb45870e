import Foundation

/// docs/EXPORT.md, read by the tests so that the documented schema and queries are the ones
/// tested.
struct ExportDocument {
    let text: String

    init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
        text = try String(contentsOf: repository.appendingPathComponent("docs/EXPORT.md"), encoding: .utf8)
    }

    /// The ```sql blocks whose first line is `-- <engine>: <name>`, by name, in order.
    func queries(engine: String) -> [(name: String, sql: String)] {
        text.components(separatedBy: "```sql\n").dropFirst().compactMap { chunk in
            guard let end = chunk.range(of: "```") else { return nil }
            let block = String(chunk[..<end.lowerBound])
            let firstLine = block.prefix { $0 != "\n" }
            let marker = "-- \(engine): "
            guard firstLine.hasPrefix(marker) else { return nil }
            return (String(firstLine.dropFirst(marker.count)), block)
        }
    }

    /// The rows of the schema table under the heading "### `<table>`…": name, type, nullable.
    func schemaTable(_ table: String) -> [(name: String, type: String, nullable: Bool)] {
        guard let heading = text.range(of: "### `\(table)`") else { return [] }
        let lines = text[heading.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return lines.dropFirst(2).map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[0], cells[1], cells[2] == "yes")
        }
    }
}
