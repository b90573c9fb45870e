import AtomsJournalReader

/// `atoms-inspect profile`: where the time went, per atom and per transaction, from the
/// timing lines of a journal (format 4.1 and later).
package enum ProfileCommand {
    /// What to profile.
    package struct Options: Sendable {
        /// The first step (default: the first transaction).
        package var from: StepSpec?
        /// The last step (default: last).
        package var to: StepSpec?
        /// Only atoms matching this pattern (`*` globs, as `show` and `log` match), and the
        /// transactions that evaluated them.
        package var atom: String?
        /// How many of the slowest transactions to list.
        package var slowest: Int
        /// JSON instead of text.
        package var json: Bool

        /// Creates options.
        package init(from: StepSpec? = nil, to: StepSpec? = nil, atom: String? = nil, slowest: Int = 10, json: Bool = false) {
            self.from = from
            self.to = to
            self.atom = atom
            self.slowest = slowest
            self.json = json
        }
    }

    /// The text table, or the JSON document.
    ///
    /// - Throws: ``InspectorError``: exit 65 for a journal recorded without timing, 64 for a
    ///   pattern no atom matches or steps out of order.
    package static func run(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> String {
        let profile = try profile(journal, options: options)
        return options.json ? JSONOutput.encode(profile) : ProfileTable.text(of: profile)
    }

    /// The steps the options name in the Trace Event Format (JSON), for Perfetto's UI and
    /// chrome://tracing: transactions, the evaluations, effects and subscribers inside them,
    /// and async tasks (docs/PROFILE.md).
    ///
    /// - Throws: As ``run(_:options:)``.
    package static func trace(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> [UInt8] {
        let steps = try journal.steps(from: options.from, to: options.to)
        return TraceEvents.document(try TimedSteps.read(journal, steps: steps), program: journal.reader.header.program)
    }

    /// The profile of the steps the options name.
    package static func profile(_ journal: InspectedJournal, options: Options) throws(InspectorError) -> Profile {
        let steps = try journal.steps(from: options.from, to: options.to)
        let timed = try TimedSteps.read(journal, steps: steps)
        var selected: Set<Int>?
        if let pattern = options.atom {
            selected = try AtomSelection.among(pattern, timed.declarations, journal: journal)
        }
        return Profile(timed, selecting: selected, slowest: options.slowest)
    }
}
