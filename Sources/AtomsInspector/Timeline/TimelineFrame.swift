import AtomsJournalReader

/// What the timeline shows at one step: the facts of the transaction, the transactions around
/// it and every live atom's value, read from a ``StepSession`` (so the screen and the `step`
/// prompt show the same values).
package struct TimelineFrame: Sendable, Equatable {
    /// How a step touched an atom.
    package enum Change: Sendable, Equatable {
        case unchanged, changed, created, released
    }

    /// One atom's line in the values pane.
    package struct AtomRow: Sendable, Equatable {
        /// The display name (`Label[key]` for a family member).
        package var name: String
        /// The value as `show` prints it (indented JSON, a dump, `<redacted>`).
        package var value: String
        /// What `show` prints after a value that is not plainly restorable.
        package var marks: [String]
        /// How this step touched the atom.
        package var change: Change
        /// The value before this step, for an atom it changed or released.
        package var previous: String?
    }

    /// The journal's path.
    package var path: String
    /// The current step, the first and the last.
    package var position: Int, first: Int, last: Int
    /// The transaction that led here (`nil` at the first step).
    package var transaction: LogCommand.Entry?
    /// Whether the journal may still grow: format 4 without its end line (its recorder has
    /// not closed it).
    package var mayGrow: Bool
    /// Transactions around the current one, in step order.
    package var transactions: [LogCommand.Entry]
    /// The values here, live atoms in `show`'s order, then atoms this step released.
    package var atoms: [AtomRow]

    /// The frame at the session's position, with up to `around` transactions listed.
    ///
    /// - Complexity: Reads the envelopes of the listed transactions, the state before this
    ///   step for the atoms it touched, and decodes nothing else the session has not.
    package init(session: StepSession, around: Int) throws(InspectorError) {
        let journal = session.inspectedJournal
        let state = session.currentState
        path = journal.path
        position = session.position
        first = journal.reader.firstStep
        last = journal.reader.lastStep
        mayGrow = journal.reader.header.version >= 4 && !journal.reader.isEnded
        let count = max(1, around)
        let from = max(first + 1, min(position - count / 2, last - count + 1))
        let to = min(last, from + count - 1)
        transactions = from <= to ? try LogCommand.entries(journal, options: .init(from: .number(from), to: .number(to))) : []
        guard position > first else {
            transaction = nil
            atoms = state.liveAtoms.map { Self.row($0, entry: state.values[$0.id]!, change: .unchanged, previous: nil) }
            return
        }
        let record = try journal.transaction(position, decodingValuesOf: [])
        let names = Naming(declarations: state.declarations)
        transaction = LogCommand.entry(of: record, names: names)
        // Written an equal value is not changed: such an atom is shown as it was.
        let changed = Set((record.values ?? []).map(\.id).filter(record.changed))
        let created = Set(record.created ?? [])
        let released = record.released ?? []
        let before = try journal.state(at: position - 1, decodingValuesOf: changed.union(released))
        atoms = state.liveAtoms.map { atom in
            let change: Change = created.contains(atom.id) ? .created : changed.contains(atom.id) ? .changed : .unchanged
            return Self.row(atom, entry: state.values[atom.id]!, change: change, previous: change == .changed ? before.values[atom.id]?.displayText : nil)
        }
        for id in released {
            guard let atom = before.declarations[id] else { continue }
            atoms.append(AtomRow(name: atom.displayName, value: "", marks: [], change: .released, previous: before.values[id]?.displayText))
        }
    }

    private static func row(_ atom: AtomDeclaration, entry: ValueEntry, change: Change, previous: String?) -> AtomRow {
        AtomRow(name: atom.displayName, value: entry.displayText, marks: entry.displayMarks, change: change, previous: previous)
    }
}
