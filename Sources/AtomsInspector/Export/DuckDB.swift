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

/// Runs SQL with DuckDB: its `duckdb` command line when it is on `PATH`, else Python's
/// `duckdb` package (both install from PyPI: `pip install duckdb`). Executed directly, never
/// through a shell; SQL goes as one argument.
package struct DuckDB: Sendable {
    /// How DuckDB is reached.
    package enum Engine: Sendable, Equatable {
        /// The `duckdb` executable.
        case commandLine(String)
        /// A Python interpreter that imports `duckdb`.
        case python(String)
    }

    /// The engine found.
    package let engine: Engine

    /// The installed DuckDB, or `nil` when there is none.
    package static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> DuckDB? {
        let searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        func executable(_ name: String) -> String? {
            searchPath.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if let duckdb = executable("duckdb") {
            return DuckDB(engine: .commandLine(duckdb))
        }
        if let python = executable("python3"), (try? run(python, ["-c", "import duckdb"]))?.status == 0 {
            return DuckDB(engine: .python(python))
        }
        return nil
    }

    /// The installed DuckDB, or an error (exit 69) saying how to install it.
    package static func required(for purpose: String) throws(InspectorError) -> DuckDB {
        guard let duckdb = find() else {
            throw InspectorError(.unavailable, "DuckDB is not installed, needed for \(purpose) — install it with `pip install duckdb` (its Python package or its command line), or export --format ndjson and convert with the COPY statement in docs/EXPORT.md")
        }
        return duckdb
    }

    /// A SQL string literal: single quotes doubled, so that no file name can end the string.
    package static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }

    /// Executes SQL statements.
    ///
    /// - Throws: ``InspectorError`` with status 69 when DuckDB cannot run or reports an error.
    package func execute(_ sql: String) throws(InspectorError) {
        let (executable, arguments): (String, [String]) =
            switch engine {
            case .commandLine(let path): (path, ["-batch", ":memory:", sql])
            case .python(let path): (path, ["-c", Self.pythonRunner, sql])
            }
        let result: (status: Int32, errors: String)
        do {
            result = try Self.run(executable, arguments)
        } catch {
            throw InspectorError(.unavailable, path: executable, "cannot run DuckDB: \(ChildProcess.describe(error)) — check the installation (`pip install duckdb`)")
        }
        guard result.status == 0 else {
            // What went wrong comes first (then a hint and the statement, pointed at).
            let reason = result.errors.split(separator: "\n").map { $0.trimmingWhitespace() }.first { !$0.isEmpty } ?? "no message"
            throw InspectorError(.unavailable, path: executable, "DuckDB failed (status \(result.status)): \(reason) — check the DuckDB installation")
        }
    }

    /// The Python program running the SQL in its first argument: an error is printed as
    /// DuckDB's own message (the command line's first line), without a traceback.
    private static let pythonRunner = """
        import sys
        try:
            import duckdb
            duckdb.connect().execute(sys.argv[1])
        except Exception as error:
            print(str(error) or type(error).__name__, file=sys.stderr)
            sys.exit(1)
        """

    /// Runs a program with no input, its output discarded and its errors kept.
    private static func run(_ executable: String, _ arguments: [String]) throws(POSIXError) -> (status: Int32, errors: String) {
        let result = try ChildProcess.run(executable, arguments, collectingOutput: false)
        return (result.status, String(decoding: result.errors, as: UTF8.self))
    }
}
