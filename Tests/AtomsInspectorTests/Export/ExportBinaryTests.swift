import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `atoms-inspect export` as a process: exit statuses, stderr lines, Parquet through DuckDB.
@MainActor
struct ExportBinaryTests {
    private func inspect(_ arguments: [String], environment: [String: String]? = nil) async throws -> BuiltProducts.Run {
        let executable = try #require(BuiltProducts.executable("atoms-inspect"), "atoms-inspect is built")
        return try await Subprocess.run(executable, arguments, environment: environment, timeout: 120)
    }

    @Test func aMissingJournalIsNamedTheOthersAreExportedAndTheStatusSaysSo() async throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let missing = directory.path("missing.jsonl")
        let output = directory.path("out")
        let run = try await inspect(["export", path, missing, "-o", output])
        #expect(run.status == ExitStatus.noInput.rawValue)
        #expect(run.stderr == "atoms-inspect: \(missing): error: cannot read: no such file — check the path and permissions\n")
        #expect(run.stdout.hasPrefix("exported 1 of 2 journals to \(output) (ndjson): "))
        let transactions = try String(contentsOfFile: output + "/transactions.ndjson", encoding: .utf8)
        #expect(transactions.split(separator: "\n").count == 9)

        let again = try await inspect(["export", path, "-o", output])
        #expect(again.status == ExitStatus.cannotCreate.rawValue)
        #expect(again.stderr.hasPrefix("atoms-inspect: \(output): error: the output folder is not empty"))
        #expect(again.stderr.contains("--force"))
        #expect(try await inspect(["export", path, "-o", output, "--force"]).status == 0)
    }

    @Test func parquetWithoutDuckDBSaysHowToInstallIt() async throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let output = directory.path("out")
        let run = try await inspect(["export", path, "-o", output, "--format", "parquet"], environment: ["PATH": directory.path("empty-bin")])
        #expect(run.status == ExitStatus.unavailable.rawValue)
        #expect(run.stderr.hasPrefix("atoms-inspect: error: DuckDB is not installed"))
        #expect(run.stderr.contains("pip install duckdb"))
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
    }

    @Test(.enabled("DuckDB is not installed (pip install duckdb): Parquet output is not tested") { await PythonDuckDB.python != nil })
    func parquetTablesHoldTheRowsWithTheDocumentedTypes() async throws {
        let directory = try TemporaryDirectory()
        // A file name that would end a SQL string literal if it were not escaped.
        let path = directory.path("it's.jsonl")
        try FileManager.default.moveItem(atPath: try RecordedSessions.small(in: directory), toPath: path)
        let output = directory.path("out'; DROP TABLE x; --")
        let run = try await inspect(["export", path, "-o", output, "--format", "parquet", "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let summary = try JSONDecoder().decode(JSONValue.self, from: Data(run.stdout.utf8))
        guard case .object(let members) = summary, case .object(let rows)? = members["rows"] else {
            Issue.record("no rows in \(run.stdout)")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["atoms.parquet", "changes.parquet", "transactions.parquet"])
        let script = """
            import json, sys, duckdb
            result = {}
            for table in ["changes", "transactions", "atoms"]:
                relation = duckdb.connect().execute("SELECT * FROM read_parquet(?)", [sys.argv[1] + "/" + table + ".parquet"])
                result[table] = {"rows": len(relation.fetchall()), "types": [column[0] + " " + str(column[1]) for column in relation.description]}
            print(json.dumps(result))
            """
        let read = try await Subprocess.run(try #require(await PythonDuckDB.python), ["-c", script, output], timeout: 120)
        try #require(read.status == 0, "\(read.stderr)")
        let tables = try JSONDecoder().decode([String: JSONValue].self, from: Data(read.stdout.utf8))
        for table in ExportTable.allCases {
            guard case .object(let facts)? = tables[table.rawValue] else {
                Issue.record("no \(table.rawValue) in \(read.stdout)")
                continue
            }
            #expect(facts["rows"] == rows[table.rawValue], "\(table.rawValue)")
            let types = table.columns.map { JSONValue.string("\($0.name) \($0.type.sqlName)") }
            #expect(facts["types"] == .array(types), "\(table.rawValue)")
        }
    }
}
