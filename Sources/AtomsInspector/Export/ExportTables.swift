import AtomsJournalReader

/// The three table files of an export, each with its row encoder.
final class ExportTables {
    let changes: ExportTableFile
    let transactions: ExportTableFile
    let atoms: ExportTableFile
    private var changeRow: ExportRowEncoder
    private var transactionRow: ExportRowEncoder
    private var atomRow: ExportRowEncoder

    /// Creates the files `changes`, `transactions` and `atoms` in `directory`, in a text syntax.
    init(directory: String, syntax: ExportRowEncoder.Syntax) throws(InspectorError) {
        let format: ExportFormat = syntax == .csv ? .csv : .ndjson
        func file(_ table: ExportTable) throws(InspectorError) -> ExportTableFile {
            try ExportTableFile(path: directory + "/" + table.fileName(format), header: syntax == .csv ? ExportRowEncoder.csvHeader(table) : [])
        }
        changes = try file(.changes)
        transactions = try file(.transactions)
        atoms = try file(.atoms)
        changeRow = ExportRowEncoder(table: .changes, syntax: syntax)
        transactionRow = ExportRowEncoder(table: .transactions, syntax: syntax)
        atomRow = ExportRowEncoder(table: .atoms, syntax: syntax)
    }

    /// Appends a row to a table: `body` writes its columns with the table's encoder.
    func append(to table: ExportTable, _ body: (inout ExportRowEncoder, inout [UInt8]) -> Void) throws(InspectorError) {
        switch table {
        case .changes: try changes.appendRow { body(&changeRow, &$0) }
        case .transactions: try transactions.appendRow { body(&transactionRow, &$0) }
        case .atoms: try atoms.appendRow { body(&atomRow, &$0) }
        }
    }

    /// A text's encoding in the tables' syntax, for a value written on many rows.
    func encoded(_ text: String?) -> [UInt8] {
        changeRow.encoded(text)
    }

    /// The rows written so far, per table.
    var rowCounts: ExportCommand.Rows {
        ExportCommand.Rows(changes: changes.rows, transactions: transactions.rows, atoms: atoms.rows)
    }

    /// Runs `body`, which writes one journal's rows; when it throws, the rows it wrote are
    /// removed from every table before the error is passed on.
    func journal(_ body: () throws(InspectorError) -> Void) throws(InspectorError) {
        let marks = (changes.mark, transactions.mark, atoms.mark)
        do {
            try body()
        } catch {
            try changes.cut(to: marks.0)
            try transactions.cut(to: marks.1)
            try atoms.cut(to: marks.2)
            throw error
        }
    }

    /// Writes what is buffered.
    func flush() throws(InspectorError) {
        try changes.flush()
        try transactions.flush()
        try atoms.flush()
    }

    /// The files' paths, per table.
    var paths: [(table: ExportTable, path: String)] {
        [(.changes, changes.path), (.transactions, transactions.path), (.atoms, atoms.path)]
    }
}
