import Foundation
import Testing
@testable import AtomsInspector

/// docs/EXPORT.md describes the columns `export` writes, in every place it lists them.
struct ExportSchemaDocumentTests {
    private func columns(_ table: ExportTable) -> [String] {
        table.columns.map { "\($0.name) \($0.type.sqlName)" }
    }

    @Test(arguments: ExportTable.allCases)
    func theSchemaTableListsTheColumns(table: ExportTable) throws {
        let documented = try ExportDocument().schemaTable(table.rawValue)
        #expect(documented.map(\.name) == table.columns.map(\.name))
        #expect(documented.map(\.type) == table.columns.map(\.type.sqlName))
        #expect(documented.map(\.nullable) == table.columns.map(\.nullable))
    }

    @Test(arguments: ExportTable.allCases)
    func theDuckDBMacrosReadTheColumnsWithTheirTypes(table: ExportTable) throws {
        let tables = try #require(try ExportDocument().queries(engine: "duckdb").first { $0.name == "tables" }?.sql)
        let start = try #require(tables.range(of: "CREATE MACRO \(table.rawValue)_in(files)"))
        let statement = tables[start.upperBound...].prefix { $0 != ";" }
        let pairs = try Regex(#"'([a-z_]+)': '([A-Z]+)'"#)
        let documented = statement.matches(of: pairs).map { "\($0.output[1].substring!) \($0.output[2].substring!)" }
        #expect(documented == columns(table))
    }

    @Test(arguments: ExportTable.allCases)
    func theSparkViewsDeclareTheColumnsWithTheirTypes(table: ExportTable) throws {
        let tables = try #require(try ExportDocument().queries(engine: "spark").first { $0.name == "tables" }?.sql)
        var names = ["\(table.rawValue) ("]
        if table == .transactions { names.append("baseline_transactions (") }
        for name in names {
            let start = try #require(tables.range(of: "CREATE TEMPORARY VIEW \(name)"))
            let list = tables[start.upperBound...].prefix { $0 != ")" }
            let documented = list.split(separator: ",").map { column in
                column.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: " STRING", with: " VARCHAR")
            }
            #expect(documented == columns(table), "\(name)")
        }
    }
}
