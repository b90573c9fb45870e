@testable import AtomsJournalReader

// What only the format's example tests need of the writer: a scanned transaction line written
// again, to check that the recorder's writer gives the same bytes for it.
extension TransactionLine {
    /// The line written again from what was scanned (`raw` holds the bytes it was scanned
    /// from): what the recorder writes for the same transaction.
    func written(from raw: UnsafeRawBufferPointer) throws -> [UInt8] {
        var line: [UInt8] = []
        Self.appendEnvelope(seq: seq, time: Array(raw[timeText]), cause: cause, origin: origin, at: at, to: &line)
        for (index, value) in values.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            let payload = raw[value.range]
            switch value.kind {
            case .whole: Self.appendWhole(id: value.id, json: Array(payload), to: &line)
            case .delta: Self.appendDelta(id: value.id, delta: Array(payload), to: &line)
            case .unchanged: Self.appendUnchanged(id: value.id, to: &line)
            case .keyed:
                // The fields after the leading `"id":N,`.
                var scanner = JSONScanner(raw, range: value.range)
                try scanner.expect(UInt8(ascii: "{"))
                guard try scanner.string() == "id" else { throw scanner.error("a keyed entry starts with its id") }
                try scanner.expect(UInt8(ascii: ":"))
                _ = try scanner.integer()
                try scanner.expect(UInt8(ascii: ","))
                Self.appendKeyed(id: value.id, fields: raw[scanner.position..<value.range.upperBound - 1], to: &line)
            case .patch:
                throw JSONScanner.SyntaxError(offset: value.range.lowerBound, message: "format 2 patches are not written any more")
            }
        }
        line.append(UInt8(ascii: "]"))
        if let changes = graph {
            let object = Self.graphChanges(
                declare: (changes.declare ?? []).map(\.json), created: changes.created ?? [], released: changes.released ?? [],
                edgesAdded: (changes.edgesAdded ?? []).map(\.json), edgesRemoved: (changes.edgesRemoved ?? []).map(\.json),
                subsAdded: (changes.subsAdded ?? []).map(\.json), subsRemoved: (changes.subsRemoved ?? []).map(\.json)
            )
            if let object {
                line.append(UInt8(ascii: ","))
                line.append(contentsOf: object.utf8)
            }
        }
        line.append(UInt8(ascii: "]"))
        return line
    }
}

extension TransactionLine.Subscription {
    /// The subscription as it was written: by location number or spelled out.
    var json: String {
        switch location {
        case .number(let number): SubscriptionEntry.json(atom: atom, location: number)
        case .spelled(let at): SubscriptionEntry(atom: atom, at: at).json
        }
    }
}
