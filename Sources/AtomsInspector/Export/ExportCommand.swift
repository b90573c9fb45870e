import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect export`: journals as three tables (`changes`, `transactions`, `atoms`) that
/// SQL engines read, in JSON Lines, CSV or Parquet; the schema is ``ExportTable`` and
/// docs/EXPORT.md.
///
/// Each journal is read once, in step order, and its rows are written as they are read:
/// memory stays constant in the journal's length. Rows of every journal go into the same
/// three files, each row naming its journal by ``journalID(path:header:)``.
///
/// ## Example
/// ```swift
/// let summary = try ExportCommand.run(["a.jsonl", "b.jsonl"], to: "exports/run-1", options: .init())
/// print(summary.rows.changes)
/// ```
package enum ExportCommand {
    /// What to export, and how.
    package struct Options: Sendable {
        /// The tables' file format.
        package var format: ExportFormat
        /// The first step exported, as in `log` (default: the first transaction).
        package var from: StepSpec?
        /// The last step exported (default: last).
        package var to: StepSpec?
        /// Write into a folder that already holds files, replacing an earlier export's tables.
        package var force: Bool

        /// Creates options.
        package init(format: ExportFormat = .ndjson, from: StepSpec? = nil, to: StepSpec? = nil, force: Bool = false) {
            self.format = format
            self.from = from
            self.to = to
            self.force = force
        }
    }

    /// Rows written, per table.
    package struct Rows: Encodable, Equatable, Sendable {
        /// Rows of `changes`.
        package let changes: Int
        /// Rows of `transactions`.
        package let transactions: Int
        /// Rows of `atoms`.
        package let atoms: Int
    }

    /// A journal that could not be exported.
    package struct Failure: Encodable, Equatable, Sendable {
        /// The journal, as given.
        package let journal: String
        /// The error's line for stderr (`atoms-inspect: <file>[:<line>]: error: …`).
        package let error: String
        /// The exit status the error calls for.
        package let status: Int32
    }

    /// What an export wrote.
    package struct Summary: Encodable, Equatable, Sendable {
        /// The output folder.
        package let directory: String
        /// The tables' format.
        package let format: String
        /// The ids of the journals exported, in the order given.
        package let journals: [String]
        /// The journals that could not be exported (none of their rows are in the tables).
        package let failed: [Failure]
        /// Rows written, per table.
        package let rows: Rows
        /// The table files, by table name.
        package let files: [String: String]

        /// The exit status: 0, or the first failed journal's.
        package var status: ExitStatus {
            failed.first.flatMap { ExitStatus(rawValue: $0.status) } ?? .ok
        }
    }

    /// A journal's id in the tables: its file (or bounded journal's folder) name without the
    /// extension, `@`, and the time recording started from its header, e.g.
    /// `todo@2026-11-24T06:17:14Z`. The same journal has the same id in every export.
    package static func journalID(path: String, header: JournalHeader) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            name = String(name[..<dot])
        }
        return "\(name)@\(header.created)"
    }

    /// Exports journals into `directory`.
    ///
    /// A journal that cannot be read is reported to `failure` (its `file:line`, as an error
    /// line) and left out of the tables, and the export of the others goes on; the summary's
    /// status says that some failed.
    /// - Parameters:
    ///   - paths: Journal files or bounded journals' folders.
    ///   - directory: The output folder: created when missing, refused when it holds files
    ///     unless `options.force`.
    ///   - open: Opens a journal (the executable's shows progress and prints warnings).
    ///   - failure: Called with each journal's error, as it happens.
    /// - Throws: ``InspectorError`` when the output cannot be written (73, 74) or DuckDB is
    ///   missing for Parquet (69).
    package static func run(
        _ paths: [String],
        to directory: String,
        options: Options,
        open: (String) throws(InspectorError) -> InspectedJournal = { path throws(InspectorError) in try InspectedJournal(path: path) },
        failure: (InspectorError) -> Void = { _ in }
    ) throws(InspectorError) -> Summary {
        let duckdb = options.format == .parquet ? try DuckDB.required(for: "--format parquet") : nil
        try ExportDirectory.prepare(directory, force: options.force)
        // Parquet is converted from JSON Lines written to a folder of their own.
        let staging = duckdb == nil ? nil : FileManager.default.temporaryDirectory.appendingPathComponent("atoms-export-\(UUID().uuidString)").path
        if let staging {
            try ExportDirectory.prepare(staging, force: false)
        }
        defer {
            if let staging { try? FileManager.default.removeItem(atPath: staging) }
        }
        let tables = try ExportTables(directory: staging ?? directory, syntax: options.format == .csv ? .csv : .ndjson)
        var exported: [String] = []
        var failed: [Failure] = []
        var ids: [String: String] = [:]
        for path in paths {
            do throws(InspectorError) {
                let journal = try open(path)
                let id = journalID(path: path, header: journal.reader.header)
                if let other = ids[id] {
                    throw InspectorError(.usage, path: path, "its id \(id) is the id of \(other) in this export — export journals with distinct file names")
                }
                ids[id] = path
                try tables.journal { () throws(InspectorError) in
                    try JournalExporter.export(journal, id: id, from: options.from, to: options.to, into: tables)
                }
                exported.append(id)
            } catch {
                guard error.status != .ioError, error.status != .cannotCreate else { throw error }
                failed.append(Failure(journal: path, error: error.description, status: error.status.rawValue))
                failure(error)
            }
        }
        try tables.flush()
        var files = Dictionary(uniqueKeysWithValues: tables.paths.map { ($0.table.rawValue, $0.path) })
        if let duckdb {
            try ParquetConversion.convert(tables.paths, into: directory, with: duckdb)
            files = Dictionary(uniqueKeysWithValues: ExportTable.allCases.map { ($0.rawValue, directory + "/" + $0.fileName(.parquet)) })
        }
        return Summary(directory: directory, format: options.format.rawValue, journals: exported, failed: failed, rows: tables.rowCounts, files: files)
    }

    /// The summary as text (one line) or JSON.
    package static func render(_ summary: Summary, json: Bool) -> String {
        if json {
            return JSONOutput.encode(summary)
        }
        let total = summary.journals.count + summary.failed.count
        let rows = summary.rows
        return "exported \(summary.journals.count) of \(total) journal\(total == 1 ? "" : "s") to \(summary.directory) (\(summary.format)): "
            + "\(rows.changes) changes, \(rows.transactions) transactions, \(rows.atoms) atoms"
    }
}
