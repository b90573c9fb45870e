/// Turns an export's JSON Lines tables into Parquet files with DuckDB, each column of the
/// type ``ExportTable`` gives it.
enum ParquetConversion {
    /// The statement converting one table: `COPY (SELECT * FROM read_json(…)) TO '….parquet'`.
    static func statement(_ table: ExportTable, from ndjson: String, to parquet: String) -> String {
        let columns = table.columns.map { "\(DuckDB.literal($0.name)): \(DuckDB.literal($0.type.sqlName))" }.joined(separator: ", ")
        return "COPY (SELECT * FROM read_json(\(DuckDB.literal(ndjson)), format = 'newline_delimited', columns = {\(columns)})) TO \(DuckDB.literal(parquet)) (FORMAT parquet)"
    }

    /// Converts each table's JSON Lines file into `directory/<table>.parquet`.
    static func convert(_ files: [(table: ExportTable, path: String)], into directory: String, with duckdb: DuckDB) throws(InspectorError) {
        let statements = files.map { statement($0.table, from: $0.path, to: directory + "/" + $0.table.fileName(.parquet)) }
        try duckdb.execute(statements.joined(separator: ";\n") + ";")
    }
}
