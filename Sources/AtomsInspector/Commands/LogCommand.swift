import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect log`: one line per transaction.
package enum LogCommand {
    /// What to list.
    package struct Options: Sendable {
        /// Only transactions that changed, created or released an atom matching this pattern.
        package var atom: String?
        /// With ``atom``: also the transactions that only wrote it a value equal to the one it had.
        package var writes = false
        /// The first step listed (default: the first transaction).
        package var from: StepSpec?
        /// The last step listed (default: last).
        package var to: StepSpec?
        /// JSON instead of text.
        package var json = false
        /// A header line (only on a terminal).
        package var header = false
        /// Colours.
        package var style = Style.plain

        /// Creates options.
        package init(
            atom: String? = nil, writes: Bool = false, from: StepSpec? = nil, to: StepSpec? = nil, json: Bool = false, header: Bool = false, style: Style = .plain
        ) {
            self.atom = atom
            self.writes = writes
            self.from = from
            self.to = to
            self.json = json
            self.header = header
            self.style = style
        }
    }

    /// The atoms a transaction touches as ``Options/atom`` selects them: those whose values
    /// it changed (or wrote, with ``Options/writes``), created or released.
    static func touched(by record: TransactionRecord, options: Options) -> [Int] {
        let values = (record.values ?? []).filter { options.writes || $0.unchanged != true }
        return values.map(\.id) + (record.created ?? []) + (record.released ?? [])
    }

    /// One transaction as the log shows it.
    package struct Entry: Encodable, Equatable, Sendable {
        /// The step (transaction number).
        package let step: Int
        /// Milliseconds since recording started.
        package let t: Double
        /// The cause.
        package let cause: String
        /// The atom that started it.
        package let origin: String?
        /// Where from (`fileID:line`).
        package let at: String?
        /// Atoms whose values changed (``TransactionRecord/changed(_:)``), in the line's order.
        package let changed: [String]
        /// Atoms written a value equal to the one they had: written, not changed.
        package let equal: [String]
        /// Atoms created.
        package let created: [String]
        /// Atoms released.
        package let released: [String]
    }

    /// The entries for the options.
    ///
    /// - Complexity: Reads each listed transaction's envelope once; values are skipped.
    package static func entries(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> [Entry] {
        var entries: [Entry] = []
        try forEachEntry(journal, options: options) { entries.append($0) }
        return entries
    }

    /// Calls `body` with each entry in step order, as it is read: memory stays constant
    /// whatever the journal's length.
    package static func forEachEntry(_ journal: InspectedJournal, options: Options, _ body: (Entry) -> Void) throws(InspectorError) {
        try forEachListed(journal, options: options) { listed, names in
            switch listed {
            case .envelope(let envelope): body(names.entry(of: envelope))
            case .record(let record): body(entry(of: record, names: names.naming))
            }
        }
    }

    /// The transactions the options list, in step order, with the names current at each:
    /// the one walk under the entries, the text and the JSON.
    ///
    /// - Complexity: One pass over the listed transactions' lines; a line in the common shape
    ///   is handed over as its envelope's bytes, never as a record.
    static func forEachListed(_ journal: InspectedJournal, options: Options, _ body: (ListedTransaction, inout LogNames) -> Void) throws(InspectorError) {
        let reader = journal.reader
        let steps = try journal.steps(from: options.from, to: options.to)
        let (first, last) = (steps.lowerBound, steps.upperBound)
        if let pattern = options.atom {
            // An atom never declared in the journal is a typo, not an empty log.
            _ = try AtomSelection.declared(pattern, in: journal, through: reader.lastStep)
        }
        // Step N is the state after transaction N: the transactions listed are first+1…last,
        // or first…last when `first` names a transaction itself.
        let firstTransaction = max(first, reader.firstStep + 1)
        guard firstTransaction <= last else {
            return
        }
        let declarations = try journal.state(at: firstTransaction - 1, decodingValuesOf: []).declarations
        var names = LogNames(declarations: declarations, pattern: options.atom)
        do {
            // The envelope only: listing never parses a value.
            try reader.forEachTransaction(from: firstTransaction, through: last, declared: Array(declarations.keys)) { listed in
                switch listed {
                case .envelope(let envelope):
                    if names.selected != nil {
                        let atoms = envelope.atoms
                        guard atoms.indices.contains(where: { names.isSelected(atoms[$0]) && (options.writes || !envelope.isEqualWrite(at: $0)) }) else {
                            return true
                        }
                    }
                case .record(let record):
                    if let declared = record.declare, !declared.isEmpty {
                        names.declare(declared)
                    }
                    if names.selected != nil {
                        guard touched(by: record, options: options).contains(where: names.isSelected) else { return true }
                    }
                }
                body(listed, &names)
                return true
            }
        } catch {
            throw InspectorError(error)
        }
    }

    /// The output: text lines (exactly one per transaction, plus an optional header) or JSON.
    package static func run(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> String {
        var output: [UInt8] = []
        try write(journal, options: options) { output.append(contentsOf: $0) }
        // The text has no newline after its last line.
        if !options.json, output.last == 0x0A { output.removeLast() }
        return String(decoding: output, as: UTF8.self)
    }

    /// The output as bytes, handed to `chunk` in blocks of about 64 KB as it is built (for
    /// printing a long journal without holding its log in memory): text lines, each ending
    /// with a newline, or the JSON array (no newline after it).
    package static func write(_ journal: InspectedJournal, options: Options, chunk: (UnsafeRawBufferPointer) -> Void) throws(InspectorError) {
        var out = LogBytes()
        defer {
            out.drain(chunk)
            out.free()
        }
        if options.json {
            var any = false
            out.append("[")
            try forEachListed(journal, options: options) { listed, names in
                out.append(any ? ",\n" : "\n")
                any = true
                out.appendJSON(listed, names: &names)
                out.drainIfFull(chunk)
            }
            out.append(any ? "\n]" : "\n\n]")
            return
        }
        let style = options.style
        if options.header {
            out.append(style.bold("step      time  cause         changed (equal =, created +, released -)  at"))
            out.append("\n")
        }
        try forEachListed(journal, options: options) { listed, names in
            switch listed {
            case .envelope(let envelope): out.appendText(envelope, names: &names, style: style)
            case .record(let record): out.append(text(of: entry(of: record, names: names.naming), style: style))
            }
            out.append("\n")
            out.drainIfFull(chunk)
        }
    }

    /// The atoms an entry lists, as `log` prints them: those changed, those written an equal
    /// value (`FilteredTodosAtom=`), `+` those created, `-` those released.
    static func listedAtoms(of entry: Entry) -> [String] {
        var atoms = entry.changed.filter { !entry.created.contains($0) }
        atoms += entry.equal.map { $0 + "=" }
        atoms += entry.created.map { "+" + $0 }
        atoms += entry.released.map { "-" + $0 }
        return atoms
    }

    /// The text line of an entry.
    static func text(of entry: Entry, style: Style) -> String {
        let atoms = listedAtoms(of: entry)
        let time = Self.seconds(milliseconds: entry.t).leftPadded(to: 9) + "s"
        let step = String(entry.step).leftPadded(to: 5)
        let cause = entry.cause.rightPadded(to: 12)
        return "\(style.bold(step)) \(style.dim(time))  \(style.cyan(cause))  \(atoms.isEmpty ? "-" : atoms.joined(separator: ", "))\(entry.at.map { "  " + style.dim("@ " + $0) } ?? "")"
    }

    /// The entry of a transaction, with atoms named by `names`.
    static func entry(of record: TransactionRecord, names: Naming) -> Entry {
        Entry(
            step: record.seq,
            t: record.t,
            cause: record.cause,
            origin: record.origin.map(names.name),
            at: record.at,
            changed: (record.values ?? []).filter { !$0.isEqualWrite }.map { names.name($0.id) },
            equal: (record.values ?? []).filter(\.isEqualWrite).map { names.name($0.id) },
            created: (record.created ?? []).map(names.name),
            released: (record.released ?? []).map(names.name)
        )
    }

    /// Milliseconds as seconds with three decimals (`1234.5678` → `1.235`), without
    /// `String(format:)`, which costs more than the rest of a log line.
    static func seconds(milliseconds: Double) -> String {
        // A time no clock gives (any JSON number reads) is shown as it is, not converted.
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return String(milliseconds / 1000) }
        let total = Int((abs(milliseconds)).rounded())
        let text = "\(total / 1000)." + String(total % 1000).leftPadded(to: 3, with: "0")
        return milliseconds < 0 && total > 0 ? "-" + text : text
    }
}

/// Display names for atom numbers: `label`, or `label[key]` for atom-family members.
struct Naming {
    private(set) var declarations: [Int: AtomDeclaration]

    init(declarations: [Int: AtomDeclaration]) {
        self.declarations = declarations
    }

    /// Adds the atoms a transaction declares.
    mutating func declare(_ declared: [AtomDeclaration]) {
        for atom in declared { declarations[atom.id] = atom }
    }

    func name(_ id: Int) -> String {
        declarations[id]?.displayName ?? "#\(id)"
    }

    /// Atom numbers whose display name, label or type matches a pattern, with every other
    /// number of the same atoms (``AtomSelection``'s rule).
    func matching(_ pattern: String) -> Set<Int> {
        AtomSelection.matching(Glob(pattern), declarations)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
