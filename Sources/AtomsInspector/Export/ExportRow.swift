import AtomsJournalReader

/// Encodes one row of a table, column by column in the table's order, as a JSON Lines
/// object or a CSV record, into a byte buffer.
struct ExportRowEncoder {
    /// The text file formats (Parquet is converted from JSON Lines).
    enum Syntax {
        case ndjson
        case csv
    }

    let syntax: Syntax
    /// Per column, what goes before its value: `{"name":` or `,"name":` (JSON Lines), or
    /// nothing or a comma (CSV).
    private let prefixes: [[UInt8]]
    private var column = 0
    /// A value's JSON text, before it is escaped into the row.
    private var scratch: [UInt8] = []

    init(table: ExportTable, syntax: Syntax) {
        self.syntax = syntax
        prefixes = table.columns.enumerated().map { index, column -> [UInt8] in
            guard syntax == .ndjson else {
                return index == 0 ? [] : [UInt8(ascii: ",")]
            }
            var prefix: [UInt8] = [UInt8(ascii: index == 0 ? "{" : ",")]
            prefix.appendJSONString(column.name)
            prefix.append(UInt8(ascii: ":"))
            return prefix
        }
    }

    /// The CSV header row.
    static func csvHeader(_ table: ExportTable) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, column) in table.columns.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: column.name.utf8)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    private mutating func next(_ out: inout [UInt8]) {
        out.append(contentsOf: prefixes[column])
        column += 1
    }

    /// Ends the row (every column must have been written).
    mutating func end(_ out: inout [UInt8]) {
        precondition(column == prefixes.count, "a row of \(prefixes.count) columns got \(column)")
        column = 0
        switch syntax {
        case .ndjson: out.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        case .csv: out.append(contentsOf: [0x0D, 0x0A])
        }
    }

    mutating func null(_ out: inout [UInt8]) {
        next(&out)
        if syntax == .ndjson { out.append(contentsOf: "null".utf8) }
    }

    mutating func integer(_ value: Int, _ out: inout [UInt8]) {
        next(&out)
        out.append(contentsOf: String(value).utf8)
    }

    mutating func integer(_ value: Int?, _ out: inout [UInt8]) {
        guard let value else { return null(&out) }
        integer(value, &out)
    }

    mutating func double(_ value: Double, _ out: inout [UInt8]) {
        guard value.isFinite else { return null(&out) }
        next(&out)
        out.append(contentsOf: String(value).utf8)
    }

    mutating func boolean(_ value: Bool, _ out: inout [UInt8]) {
        next(&out)
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func text(_ value: String?, _ out: inout [UInt8]) {
        guard let value else { return null(&out) }
        next(&out)
        appendText(value.utf8, &out)
    }

    /// A value's compact JSON text (sorted keys, numbers as recorded), as a text column.
    mutating func json(_ value: JSONValue?, _ out: inout [UInt8]) {
        guard let value else { return null(&out) }
        next(&out)
        scratch.removeAll(keepingCapacity: true)
        value.writeJSON(into: &scratch)
        appendText(scratch, &out)
    }

    /// Bytes already encoded for this column by ``encoded(_:)``.
    mutating func encoded(_ bytes: [UInt8], _ out: inout [UInt8]) {
        next(&out)
        out.append(contentsOf: bytes)
    }

    /// A text's encoding in this syntax, without the column's prefix: for values written on
    /// many rows (an atom's names), encoded once.
    func encoded(_ value: String?) -> [UInt8] {
        var bytes: [UInt8] = []
        if let value {
            appendText(value.utf8, &bytes)
        } else if syntax == .ndjson {
            bytes.append(contentsOf: "null".utf8)
        }
        return bytes
    }

    private func appendText(_ utf8: some Collection<UInt8>, _ out: inout [UInt8]) {
        switch syntax {
        case .ndjson:
            let appended: Void? = utf8.withContiguousStorageIfAvailable { out.appendJSONString(utf8: $0) }
            if appended == nil {
                Array(utf8).withUnsafeBufferPointer { out.appendJSONString(utf8: $0) }
            }
        case .csv: Self.appendCSVField(utf8, &out)
        }
    }

    /// An RFC 4180 field: quoted (with quotes doubled) when it holds a comma, a quote, a line
    /// break, or nothing (so an empty text differs from null, which is an empty field).
    static func appendCSVField(_ utf8: some Collection<UInt8>, _ out: inout [UInt8]) {
        let needsQuotes = utf8.isEmpty || utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            out.append(contentsOf: utf8)
            return
        }
        out.append(0x22)
        for byte in utf8 {
            if byte == 0x22 { out.append(0x22) }
            out.append(byte)
        }
        out.append(0x22)
    }
}
