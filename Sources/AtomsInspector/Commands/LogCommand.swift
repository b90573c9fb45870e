import AtomsJournal
import Foundation

/// `atoms-inspect log`: one line per transaction.
public enum LogCommand {
    /// What to list.
    public struct Options: Sendable {
        /// Only transactions that changed, created or released an atom matching this pattern.
        public var atom: String?
        /// The first step listed (default: the first transaction).
        public var from: StepSpec?
        /// The last step listed (default: last).
        public var to: StepSpec?
        /// JSON instead of text.
        public var json = false
        /// A header line (only on a terminal).
        public var header = false
        /// Colours.
        public var style = Style.plain

        /// Creates options.
        public init(atom: String? = nil, from: StepSpec? = nil, to: StepSpec? = nil, json: Bool = false, header: Bool = false, style: Style = .plain) {
            self.atom = atom
            self.from = from
            self.to = to
            self.json = json
            self.header = header
            self.style = style
        }
    }

    /// One transaction as the log shows it.
    public struct Entry: Encodable, Equatable, Sendable {
        /// The step (transaction number).
        public let step: Int
        /// Milliseconds since recording started.
        public let t: Double
        /// The cause.
        public let cause: String
        /// The atom that started it.
        public let origin: String?
        /// Where from (`fileID:line`).
        public let at: String?
        /// Atoms whose values changed.
        public let changed: [String]
        /// Atoms created.
        public let created: [String]
        /// Atoms released.
        public let released: [String]
    }

    /// The entries for the options.
    ///
    /// - Complexity: Reads each listed transaction's envelope once; values are skipped.
    public static func entries(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> [Entry] {
        let reader = journal.reader
        let first = try options.from.map { spec throws(InspectorError) in try journal.step(spec) } ?? reader.firstStep
        let last = try options.to.map { spec throws(InspectorError) in try journal.step(spec) } ?? reader.lastStep
        guard first <= last else {
            throw InspectorError(.usage, "\(journal.path): --from \(first) is after --to \(last) — swap them")
        }
        if let pattern = options.atom {
            // An atom never declared in the journal is a typo, not an empty log.
            let everyAtom = try journal.state(at: reader.lastStep, decodingValuesOf: []).declarations
            guard !Naming(declarations: everyAtom).matching(pattern).isEmpty else {
                throw InspectorError(.usage, "\(journal.path): no atom in the journal matches '\(pattern)' — list atoms with `atoms-inspect show`")
            }
        }
        // Step N is the state after transaction N: the transactions listed are first+1…last,
        // or first…last when `first` names a transaction itself.
        let firstTransaction = max(first, reader.firstStep + 1)
        guard firstTransaction <= last else {
            return []
        }
        var declarations = try journal.state(at: firstTransaction - 1, decodingValuesOf: []).declarations
        var names = Naming(declarations: declarations)
        var entries: [Entry] = []
        for step in firstTransaction...last {
            // The envelope only: listing never parses a value.
            let record = try journal.transaction(step, decodingValuesOf: [])
            if let declared = record.declare, !declared.isEmpty {
                for atom in declared { declarations[atom.id] = atom }
                names = Naming(declarations: declarations)
            }
            let entry = Entry(
                step: step,
                t: record.t,
                cause: record.cause,
                origin: record.origin.map(names.name),
                at: record.at,
                changed: (record.values ?? []).map { names.name($0.id) },
                created: (record.created ?? []).map(names.name),
                released: (record.released ?? []).map(names.name)
            )
            if let pattern = options.atom {
                let touched = Set((record.values ?? []).map(\.id) + (record.created ?? []) + (record.released ?? []))
                guard !names.matching(pattern).isDisjoint(with: touched) else { continue }
            }
            entries.append(entry)
        }
        return entries
    }

    /// The output: text lines (exactly one per transaction, plus an optional header) or JSON.
    public static func run(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> String {
        let entries = try entries(journal, options: options)
        if options.json {
            return JSONOutput.encode(entries)
        }
        let style = options.style
        var lines: [String] = []
        if options.header {
            lines.append(style.bold("step      time  cause         changed (created +, released -)  at"))
        }
        for entry in entries {
            var atoms = entry.changed.filter { !entry.created.contains($0) }
            atoms += entry.created.map { "+" + $0 }
            atoms += entry.released.map { "-" + $0 }
            let time = String(format: "%9.3fs", entry.t / 1000)
            let step = String(entry.step).leftPadded(to: 5)
            let cause = entry.cause.padding(toLength: 12, withPad: " ", startingAt: 0)
            lines.append("\(style.bold(step)) \(style.dim(time))  \(style.cyan(cause))  \(atoms.isEmpty ? "-" : atoms.joined(separator: ", "))\(entry.at.map { "  " + style.dim("@ " + $0) } ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}

/// Display names for atom numbers: `label`, or `label[key]` for atom-family members.
struct Naming {
    let declarations: [Int: AtomDeclaration]

    func name(_ id: Int) -> String {
        declarations[id]?.displayName ?? "#\(id)"
    }

    /// Atom numbers whose display name, label or type matches a pattern.
    func matching(_ pattern: String) -> Set<Int> {
        let glob = Glob(pattern)
        return Set(declarations.values.filter { [$0.displayName, $0.label, $0.type].contains(where: glob.matches) }.map(\.id))
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
