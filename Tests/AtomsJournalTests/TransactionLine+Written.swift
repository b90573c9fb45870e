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
            line.append(UInt8(ascii: ","))
            if try Self.graphIsPositional(in: raw) {
                try changes.positional().append(to: &line)
            } else {
                line.append(contentsOf: changes.object.utf8)
            }
        }
        line.append(UInt8(ascii: "]"))
        return line
    }
}

extension TransactionLine {
    /// Whether the line in `raw` writes its graph changes as format 4.4's lists.
    static func graphIsPositional(in raw: UnsafeRawBufferPointer) throws -> Bool {
        var scanner = JSONScanner(raw, range: 0..<raw.count)
        var (index, positional) = (0, false)
        try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
            if index == 6 { positional = scanner.peek() == UInt8(ascii: "[") }
            index += 1
            try scanner.skipValue()
        }
        return positional
    }
}

extension TransactionLine.GraphChanges {
    /// The object form, as recorders before format 4.4 wrote it.
    var object: String {
        var graph = JSONLine()
        graph.array("declare", (declare ?? []).map(\.json))
        graph.array("created", (created ?? []).map(String.init))
        graph.array("released", (released ?? []).map(String.init))
        graph.array("edgesAdded", (edgesAdded ?? []).map(\.json))
        graph.array("edgesRemoved", (edgesRemoved ?? []).map(\.json))
        graph.array("subsAdded", (subsAdded ?? []).map(\.json))
        graph.array("subsRemoved", (subsRemoved ?? []).map(\.json))
        return graph.finished()
    }

    /// The positional form (format 4.4), for a line read from it.
    func positional() throws -> PositionalGraph {
        func number(_ reference: TransactionLine.Reference) throws -> Int {
            guard case .number(let number) = reference else {
                throw JSONScanner.SyntaxError(offset: 0, message: "a positional line names everything by number")
            }
            return number
        }
        var graph = PositionalGraph()
        graph.declare = try (declare ?? []).map { declaration in
            PositionalGraph.Declaration(
                id: declaration.id, type: try number(declaration.type), key: declaration.key, label: declaration.label, scope: declaration.scope
            )
        }
        (graph.created, graph.released) = (created ?? [], released ?? [])
        (graph.edgesAdded, graph.edgesRemoved) = (edgesAdded ?? [], edgesRemoved ?? [])
        graph.subsAdded = try (subsAdded ?? []).map { ($0.atom, try number($0.location)) }
        graph.subsRemoved = try (subsRemoved ?? []).map { ($0.atom, try number($0.location)) }
        return graph
    }
}

extension TransactionLine.Declaration {
    /// The declaration object, as recorders before format 4.4 wrote it.
    var json: String {
        guard case .spelled(let type) = type, let label else { return "a positional declaration" }
        return AtomDeclaration(id: id, label: label, type: type, key: key, scope: scope).json
    }
}

extension TransactionLine.Subscription {
    /// The subscription as it was written: by location number or spelled out.
    var json: String {
        switch location {
        case .number(let number): "{\"atom\":\(atom),\"loc\":\(number)}"
        case .spelled(let at): SubscriptionEntry(atom: atom, at: at).json
        }
    }
}
