import AtomsJournal

/// `atoms-inspect stats`: the size and shape of a journal.
public enum StatsCommand {
    /// The facts `stats` prints.
    public struct Stats: Encodable, Equatable, Sendable {
        /// Transactions recorded.
        public let transactions: Int
        /// Keyframes.
        public let keyframes: Int
        /// Atoms declared.
        public let atoms: Int
        /// Atoms live at the last step.
        public let liveAtoms: Int
        /// Milliseconds from the first to the last transaction.
        public let timeSpanMilliseconds: Double
        /// The file's size in bytes.
        public let fileBytes: Int
        /// Transactions per cause.
        public let causes: [String: Int]
        /// The atoms that changed most, with how often (up to 10).
        public let mostChanged: [Changed]

        /// An atom and its number of value changes.
        public struct Changed: Encodable, Equatable, Sendable {
            /// The atom.
            public let atom: String
            /// How many transactions set its value.
            public let changes: Int
        }
    }

    /// The statistics of a journal.
    ///
    /// - Complexity: Reads every transaction's envelope once; values are skipped.
    public static func stats(_ journal: InspectedJournal) throws(InspectorError) -> Stats {
        let reader = journal.reader
        let last = try journal.state(at: reader.lastStep, decodingValuesOf: [])
        var causes: [String: Int] = [:]
        var changes: [Int: Int] = [:]
        var firstTime: Double?
        var lastTime = 0.0
        if reader.lastStep > reader.firstStep {
            for seq in (reader.firstStep + 1)...reader.lastStep {
                let record = try journal.transaction(seq, decodingValuesOf: [])
                causes[record.cause, default: 0] += 1
                for value in record.values ?? [] {
                    changes[value.id, default: 0] += 1
                }
                firstTime = firstTime ?? record.t
                lastTime = record.t
            }
        }
        let names = Naming(declarations: last.declarations)
        let mostChanged = changes.sorted { ($0.value, names.name($1.key)) > ($1.value, names.name($0.key)) }
            .prefix(10)
            .map { Stats.Changed(atom: names.name($0.key), changes: $0.value) }
        return Stats(
            transactions: reader.transactionCount,
            keyframes: reader.keyframeSteps.count,
            atoms: last.declarations.count,
            liveAtoms: last.liveAtoms.count,
            timeSpanMilliseconds: lastTime - (firstTime ?? lastTime),
            fileBytes: reader.fileSize,
            causes: causes,
            mostChanged: Array(mostChanged)
        )
    }

    /// The text or JSON for `stats`.
    public static func run(_ journal: InspectedJournal, json: Bool = false, style: Style = .plain) throws(InspectorError) -> String {
        let stats = try stats(journal)
        if json {
            return JSONOutput.encode(stats)
        }
        var lines = [
            "\(style.bold("journal"))       \(journal.path)",
            "\(style.bold("transactions"))  \(stats.transactions) (steps \(journal.reader.firstStep)…\(journal.reader.lastStep))",
            "\(style.bold("keyframes"))     \(stats.keyframes) (every \(journal.reader.header.keyframeInterval) transactions)",
            "\(style.bold("atoms"))         \(stats.atoms) declared, \(stats.liveAtoms) live at the end",
            "\(style.bold("time span"))     \(LogCommand.seconds(milliseconds: stats.timeSpanMilliseconds)) s",
            "\(style.bold("file size"))     \(stats.fileBytes) bytes",
            "\(style.bold("causes"))        " + stats.causes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
            style.bold("most changed"),
        ]
        lines += stats.mostChanged.map { "  \(String($0.changes).leftPadded(to: 7))  \($0.atom)" }
        return lines.joined(separator: "\n")
    }
}
