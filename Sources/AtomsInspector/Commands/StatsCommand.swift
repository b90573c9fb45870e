import AtomsJournalReader

/// `atoms-inspect stats`: the size and shape of a journal.
package enum StatsCommand {
    /// The facts `stats` prints.
    package struct Stats: Encodable, Equatable, Sendable {
        /// Transactions recorded.
        package let transactions: Int
        /// Keyframes.
        package let keyframes: Int
        /// Atoms declared: one atom is one type, key and scope (``AtomDeclaration/identityKey``),
        /// counted once whatever numbers it had (released, then declared again under a new one).
        package let atoms: Int
        /// Atoms live at the last step.
        package let liveAtoms: Int
        /// Milliseconds from the first to the last transaction.
        package let timeSpanMilliseconds: Double
        /// The file's size in bytes.
        package let fileBytes: Int
        /// Transactions per cause.
        package let causes: [String: Int]
        /// The atoms that changed most, with how often, and how often they were written (up to 10).
        package let mostChanged: [Changed]
        /// Files: a bounded journal's segments, or 1.
        package let segments: Int
        /// Transactions deleted by a bounded journal's size limit (before its first step).
        package let droppedTransactions: Int
        /// Whether the recorder closed the journal (it ends with an end line).
        package let ended: Bool
        /// How many times the program waited for its recorder, which had fallen a whole
        /// hand-over behind (`nil` when it never did).
        package let recorderWaits: Int?

        /// An atom, its number of value changes and its number of writes.
        package struct Changed: Encodable, Equatable, Sendable {
            /// The atom.
            package let atom: String
            /// How many transactions changed its value (wrote one different from the one
            /// before), under any of its numbers.
            package let changes: Int
            /// How many transactions wrote its value, equal to the one before or not.
            package let writes: Int
        }
    }

    /// The statistics of a journal.
    ///
    /// - Complexity: Reads every transaction's envelope once (twice when an atom that changed
    ///   was released before the last keyframe, to name it); values are skipped.
    package static func stats(_ journal: InspectedJournal) throws(InspectorError) -> Stats {
        try journal.readingEveryLine { () throws(InspectorError) in try counted(journal) }
    }

    /// ``stats(_:)``, without naming the first damaged line.
    private static func counted(_ journal: InspectedJournal) throws(InspectorError) -> Stats {
        let reader = journal.reader
        let last = try journal.state(at: reader.lastStep, decodingValuesOf: [])
        let summary: JournalSummary
        do {
            summary = try reader.summary()
        } catch {
            throw InspectorError(error)
        }
        let writes = summary.valueWrites
        let causes = summary.causes
        var declarations = last.declarations
        if writes.keys.contains(where: { declarations[$0] == nil }) {
            // Atoms released before the last keyframe (which declares what is live): their
            // declarations are further back.
            declarations = try journal.declarations(through: reader.lastStep)
        }
        let names = Naming(declarations: declarations)
        // One atom across its numbers: changes summed by identity, named by its display name
        // at its latest number, as `blame` names it (a damaged journal may declare an identity
        // under two labels).
        var changesByAtom: [String: (name: String, changes: Int, writes: Int)] = [:]
        for (id, count) in writes.sorted(by: { $0.key < $1.key }) {
            let identity = declarations[id]?.identityKey ?? "#\(id)"
            changesByAtom[identity, default: ("", 0, 0)].changes += count - summary.equalWrites[id, default: 0]
            changesByAtom[identity]!.writes += count
            changesByAtom[identity]!.name = names.name(id)
        }
        // By changes, then by writes: an atom only ever written equal values still shows.
        let mostChanged = changesByAtom.values.sorted { ($0.changes, $0.writes, $1.name) > ($1.changes, $1.writes, $0.name) }
            .prefix(10)
            .map { Stats.Changed(atom: $0.name, changes: $0.changes, writes: $0.writes) }
        return Stats(
            transactions: reader.transactionCount,
            keyframes: summary.keyframes,
            atoms: Set(declarations.values.map(\.identityKey)).count,
            liveAtoms: last.liveAtoms.count,
            timeSpanMilliseconds: (summary.lastTime ?? 0) - (summary.firstTime ?? summary.lastTime ?? 0),
            fileBytes: reader.fileSize,
            causes: causes,
            mostChanged: Array(mostChanged),
            segments: reader.segmentCount,
            droppedTransactions: reader.droppedTransactions,
            ended: reader.isEnded,
            recorderWaits: reader.recorderWaits > 0 ? reader.recorderWaits : nil
        )
    }

    /// The text or JSON for `stats`.
    package static func run(_ journal: InspectedJournal, json: Bool = false, style: Style = .plain) throws(InspectorError) -> String {
        let stats = try stats(journal)
        if json {
            return JSONOutput.encode(stats)
        }
        var lines = [
            "\(style.bold("journal"))       \(journal.path)",
            "\(style.bold("transactions"))  \(stats.transactions) (steps \(journal.reader.firstStep)…\(journal.reader.lastStep))"
                + (stats.droppedTransactions > 0 ? ", \(stats.droppedTransactions) earlier ones dropped by the size limit" : "")
                + (stats.ended ? "" : journal.reader.header.version >= 4 ? ", still being recorded or cut short (no end line)" : ""),
            "\(style.bold("keyframes"))     \(stats.keyframes) (every \(journal.reader.header.keyframeInterval) transactions)",
            "\(style.bold("atoms"))         \(stats.atoms) declared, \(stats.liveAtoms) live at the end",
            "\(style.bold("time span"))     \(LogCommand.seconds(milliseconds: stats.timeSpanMilliseconds)) s",
            "\(style.bold("file size"))     \(stats.fileBytes) bytes" + (journal.reader.isBounded ? " in \(stats.segments) segments (limit \(journal.reader.header.limit ?? 0) bytes)" : ""),
            "\(style.bold("causes"))        " + stats.causes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
        ]
        if let waits = stats.recorderWaits {
            lines.append("\(style.bold("recorder"))      the program waited \(waits) \(waits == 1 ? "time" : "times") for it to catch up")
        }
        lines.append(style.bold("most changed") + "  (changes; writes, when some wrote an equal value)")
        lines += stats.mostChanged.map { changed in
            "  \(String(changed.changes).leftPadded(to: 7))  \(changed.atom)" + (changed.writes != changed.changes ? "  (\(changed.writes) writes)" : "")
        }
        return lines.joined(separator: "\n")
    }
}
