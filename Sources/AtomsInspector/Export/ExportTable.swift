/// The tables `atoms-inspect export` writes, and their columns: the one definition of the
/// export's schema. The writers emit columns in this order, the Parquet conversion gives
/// DuckDB these types, and docs/EXPORT.md lists the same columns (a test compares them).
///
/// Within a major version of the tool, columns are only added, at the end of a table.
package enum ExportTable: String, CaseIterable, Sendable {
    /// One row per atom value recorded by a transaction.
    case changes
    /// One row per transaction.
    case transactions
    /// One row per atom declared.
    case atoms

    /// The table's columns, in the order every format writes them.
    package var columns: [ExportColumn] {
        switch self {
        case .changes:
            [
                .init("journal", .text), .init("step", .integer), .init("time_ms", .double),
                .init("atom_id", .integer), .init("atom", .text), .init("label", .text), .init("type", .text),
                .init("key", .text, nullable: true), .init("scope", .integer, nullable: true),
                .init("value", .text, nullable: true), .init("dump", .text, nullable: true),
                .init("phase", .text, nullable: true), .init("redacted", .boolean),
                .init("unchanged", .boolean), .init("created", .boolean), .init("cause", .text),
                .init("origin", .text, nullable: true), .init("origin_id", .integer, nullable: true),
                .init("site", .text, nullable: true),
            ]
        case .transactions:
            [
                .init("journal", .text), .init("step", .integer), .init("time_ms", .double), .init("cause", .text),
                .init("origin", .text, nullable: true), .init("origin_id", .integer, nullable: true),
                .init("site", .text, nullable: true), .init("changed", .integer), .init("unchanged", .integer),
                .init("created", .integer), .init("released", .integer), .init("declared", .integer),
                .init("duration_ms", .double, nullable: true),
            ]
        case .atoms:
            [
                .init("journal", .text), .init("atom_id", .integer), .init("atom", .text), .init("label", .text),
                .init("type", .text), .init("key", .text, nullable: true), .init("scope", .integer, nullable: true),
                .init("declared_step", .integer),
            ]
        }
    }

    /// The table's file name in an export folder: `changes.ndjson`, `atoms.csv`, ….
    package func fileName(_ format: ExportFormat) -> String {
        "\(rawValue).\(format.rawValue)"
    }
}

/// A column of an exported table.
package struct ExportColumn: Sendable, Equatable {
    /// The column's name.
    package let name: String
    /// The column's type.
    package let type: ExportColumnType
    /// Whether the column can be null.
    package let nullable: Bool

    init(_ name: String, _ type: ExportColumnType, nullable: Bool = false) {
        self.name = name
        self.type = type
        self.nullable = nullable
    }
}

/// The type of an exported column, as SQL engines read it.
package enum ExportColumnType: String, Sendable {
    /// Text (`VARCHAR`); a value's JSON text is text too.
    case text
    /// A 64-bit integer (`BIGINT`).
    case integer
    /// A double (`DOUBLE`).
    case double
    /// `true` or `false` (`BOOLEAN`).
    case boolean

    /// The type's name in DuckDB (and Spark) SQL.
    package var sqlName: String {
        switch self {
        case .text: "VARCHAR"
        case .integer: "BIGINT"
        case .double: "DOUBLE"
        case .boolean: "BOOLEAN"
        }
    }
}

/// The file formats `atoms-inspect export` writes.
package enum ExportFormat: String, CaseIterable, Sendable {
    /// JSON Lines: one object per row, every column present (`null` when empty).
    case ndjson
    /// CSV (RFC 4180): a header row, then one row per line; null is an empty field, an empty
    /// text is `""`.
    case csv
    /// Parquet, written by DuckDB from the JSON Lines.
    case parquet
}
