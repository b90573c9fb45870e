import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Running DuckDB: found on PATH or through Python, SQL literals that no file name can end,
/// and its errors as one line with status 69.
struct DuckDBTests {
    @Test func fileNamesAreSQLLiteralsWithTheirQuotesDoubled() {
        #expect(DuckDB.literal("it's") == "'it''s'")
        let statement = ParquetConversion.statement(.atoms, from: "/tmp/a'; DROP TABLE x; --/atoms.ndjson", to: "/tmp/o'k/atoms.parquet")
        #expect(statement.hasPrefix("COPY (SELECT * FROM read_json('/tmp/a''; DROP TABLE x; --/atoms.ndjson', format = 'newline_delimited', columns = {'journal': 'VARCHAR', 'atom_id': 'BIGINT', "))
        #expect(statement.hasSuffix(") TO '/tmp/o''k/atoms.parquet' (FORMAT parquet)"))
    }

    @Test func withNothingOnThePathThereIsNoDuckDB() {
        #expect(DuckDB.find(environment: ["PATH": "/nonexistent"]) == nil)
    }

    @Test(.enabled("DuckDB is not installed (pip install duckdb): its errors are not tested") { await PythonDuckDB.python != nil })
    func aFailingStatementIsOneLineWithStatus69() async throws {
        let duckdb = try #require(DuckDB.find())
        // DuckDB runs as a process: on a thread of its own, not a test's.
        let (good, bad) = try await OwnThread.run {
            (Result<Void, InspectorError> { () throws(InspectorError) in try duckdb.execute("SELECT 1") }, Result<Void, InspectorError> { () throws(InspectorError) in try duckdb.execute("SELECT * FROM no_such_table") })
        }
        #expect(throws: Never.self) { try good.get() }
        do throws(InspectorError) {
            try bad.get()
            Issue.record("DuckDB ran a query over a missing table")
        } catch {
            #expect(error.status == .unavailable)
            #expect(error.message.contains("no_such_table"))
            #expect(!error.description.contains("\n"))
        }
    }
}
