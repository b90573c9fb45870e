import AtomsJournalReader

/// `atoms-inspect compare`: two journals of one scenario, aligned by transaction order, and
/// the first step where they diverge.
///
/// Atoms are matched by identity (type, key, scope), not by the numbers each journal gives
/// them; time is ignored. A step diverges when its transaction's cause, origin or write site
/// differs, when an atom it touches has a different value or liveness on the two sides, or
/// when it changes the dependency graph or the subscriptions differently.
package enum CompareCommand {
    /// What to leave out.
    package struct Options: Sendable {
        /// Atoms to leave out (display name, label or type; `*` globs).
        package var ignore: [String]
        /// Leave write sites and subscription locations out.
        package var ignoreLocations: Bool

        /// Creates options.
        package init(ignore: [String] = [], ignoreLocations: Bool = false) {
            self.ignore = ignore
            self.ignoreLocations = ignoreLocations
        }
    }

    /// One thing that differs at the diverging step.
    package struct Difference: Encodable, Equatable, Sendable {
        /// `cause`, `origin`, `at`, `value`, `live`, `edges`, `subscriptions` or `length`.
        package let kind: String
        /// The atom, for `value` and `live`.
        package let atom: String?
        /// What the first journal has.
        package let a: String
        /// What the second journal has.
        package let b: String
        /// For `value`: a line diff (`-` first journal, `+` second).
        package let diff: String?
    }

    /// A transaction as the comparison shows it.
    package struct Transaction: Encodable, Equatable, Sendable {
        /// Its step in its own journal.
        package let step: Int
        /// The cause.
        package let cause: String
        /// The write site.
        package let at: String?
        /// The atoms it changed.
        package let changed: [String]
    }

    /// The outcome.
    package struct Comparison: Encodable, Equatable, Sendable {
        /// The first journal.
        package let a: String
        /// The second journal.
        package let b: String
        /// Transactions compared and found equal.
        package let matchingTransactions: Int
        /// Whether the journals diverge.
        package let diverges: Bool
        /// The step (in the first journal's numbering) where they diverge.
        package let step: Int?
        /// The first journal's transaction there (`nil` where it has ended).
        package let transactionA: Transaction?
        /// The second journal's.
        package let transactionB: Transaction?
        /// What differs there.
        package let differences: [Difference]
    }

    /// Compares two journals.
    ///
    /// - Complexity: One pass over both journals, comparing only the atoms each transaction
    ///   touches: the states before a step are equal, so equal changes keep them equal.
    package static func compare(_ a: InspectedJournal, _ b: InspectedJournal, options: Options = .init()) throws(InspectorError) -> Comparison {
        let globs = options.ignore.map(Glob.init)
        var left = try ComparedJournal(a, ignoring: globs)
        var right = try ComparedJournal(b, ignoring: globs)
        func outcome(_ index: Int, _ differences: [Difference], _ recordA: TransactionRecord?, _ recordB: TransactionRecord?) -> Comparison {
            // Called only where they diverge: the transactions before `index` matched.
            Comparison(
                a: a.path, b: b.path, matchingTransactions: max(index - 1, 0), diverges: true,
                step: a.reader.firstStep + index,
                transactionA: recordA.map { summary($0, left) }, transactionB: recordB.map { summary($0, right) },
                differences: differences
            )
        }
        // The states the journals start from.
        let startDifferences = compareLive(left, right, identities: left.liveIdentities.union(right.liveIdentities))
            + compareSets("edges", left.edges(Array(left.state.edges)), right.edges(Array(right.state.edges)))
            + compareSets("subscriptions", left.subscriptions(Array(left.state.subscriptions), locations: !options.ignoreLocations),
                          right.subscriptions(Array(right.state.subscriptions), locations: !options.ignoreLocations))
        if !startDifferences.isEmpty {
            return outcome(0, startDifferences, nil, nil)
        }
        let common = min(left.count, right.count)
        var index = 1
        while index <= common {
            let recordA = try left.advance(to: index)
            let recordB = try right.advance(to: index)
            let differences = compare(recordA, left, recordB, right, options: options)
            if !differences.isEmpty {
                return outcome(index, differences, recordA, recordB)
            }
            index += 1
        }
        guard left.count != right.count else {
            return Comparison(a: a.path, b: b.path, matchingTransactions: common, diverges: false, step: nil, transactionA: nil, transactionB: nil, differences: [])
        }
        // One journal goes on after the other ends.
        let recordA = left.count > common ? try left.advance(to: index) : nil
        let recordB = right.count > common ? try right.advance(to: index) : nil
        let ended = Difference(
            kind: "length", atom: nil,
            a: recordA == nil ? "ends after \(left.count) transactions" : "has transaction \(index)",
            b: recordB == nil ? "ends after \(right.count) transactions" : "has transaction \(index)", diff: nil
        )
        return outcome(index, [ended], recordA, recordB)
    }

    private static func compare(_ recordA: TransactionRecord, _ left: ComparedJournal, _ recordB: TransactionRecord, _ right: ComparedJournal, options: Options) -> [Difference] {
        var differences: [Difference] = []
        if recordA.cause != recordB.cause {
            differences.append(Difference(kind: "cause", atom: nil, a: recordA.cause, b: recordB.cause, diff: nil))
        }
        let originA = recordA.origin.map(left.identity)
        let originB = recordB.origin.map(right.identity)
        if originA != originB {
            differences.append(Difference(kind: "origin", atom: nil, a: recordA.origin.map(left.name) ?? "none", b: recordB.origin.map(right.name) ?? "none", diff: nil))
        }
        if !options.ignoreLocations, recordA.at != recordB.at {
            differences.append(Difference(kind: "at", atom: nil, a: recordA.at ?? "none", b: recordB.at ?? "none", diff: nil))
        }
        let touched = Set(left.touched(recordA).keys).union(right.touched(recordB).keys)
        differences += compareLive(left, right, identities: touched)
        differences += compareSets("edges", left.edges(recordA.edgesAdded ?? []), right.edges(recordB.edgesAdded ?? []), added: true)
        differences += compareSets("edges", left.edges(recordA.edgesRemoved ?? []), right.edges(recordB.edgesRemoved ?? []), added: false)
        let locations = !options.ignoreLocations
        differences += compareSets("subscriptions", left.subscriptions(recordA.subsAdded ?? [], locations: locations), right.subscriptions(recordB.subsAdded ?? [], locations: locations), added: true)
        differences += compareSets("subscriptions", left.subscriptions(recordA.subsRemoved ?? [], locations: locations), right.subscriptions(recordB.subsRemoved ?? [], locations: locations), added: false)
        return differences
    }

    /// Liveness and values of the atoms with these identities, on both sides.
    private static func compareLive(_ left: ComparedJournal, _ right: ComparedJournal, identities: Set<String>) -> [Difference] {
        var differences: [Difference] = []
        for identity in identities.sorted() {
            switch (left.liveAtom(identity), right.liveAtom(identity)) {
            case (nil, nil):
                continue
            case (let a?, let b?):
                let valueA = left.state.values[a]!
                let valueB = right.state.values[b]!
                guard comparable(valueA) != comparable(valueB) else { continue }
                differences.append(Difference(
                    kind: "value", atom: left.name(a), a: BlameCommand.summary(DiffCommand.display(valueA)),
                    b: BlameCommand.summary(DiffCommand.display(valueB)), diff: DiffCommand.lineDiff(valueA, valueB)
                ))
            case (let a, let b):
                let name = a.map(left.name) ?? b.map(right.name)!
                differences.append(Difference(kind: "live", atom: name, a: a == nil ? "not live" : "live", b: b == nil ? "not live" : "live", diff: nil))
            }
        }
        return differences
    }

    /// A value without its journal-local number.
    private static func comparable(_ entry: ValueEntry) -> ValueEntry {
        var entry = entry
        entry.id = 0
        return entry
    }

    private static func compareSets(_ kind: String, _ a: [String: String], _ b: [String: String], added: Bool? = nil) -> [Difference] {
        guard Set(a.keys) != Set(b.keys) else { return [] }
        let verb = added.map { $0 ? "adds " : "removes " } ?? ""
        func list(_ side: [String: String]) -> String {
            side.isEmpty ? "\(verb)none" : verb + side.values.sorted().joined(separator: ", ")
        }
        return [Difference(kind: kind, atom: nil, a: list(a), b: list(b), diff: nil)]
    }

    private static func summary(_ record: TransactionRecord, _ side: ComparedJournal) -> Transaction {
        Transaction(step: record.seq, cause: record.cause, at: record.at, changed: (record.values ?? []).map { side.name($0.id) })
    }

    /// The text or JSON for `compare`; `diverges` tells whether to exit 1.
    package static func run(_ a: InspectedJournal, _ b: InspectedJournal, options: Options = .init(), json: Bool = false, style: Style = .plain) throws(InspectorError) -> (output: String, diverges: Bool) {
        let comparison = try compare(a, b, options: options)
        if json {
            return (JSONOutput.encode(comparison), comparison.diverges)
        }
        guard comparison.diverges, let step = comparison.step else {
            return ("\(a.path) and \(b.path) match: \(comparison.matchingTransactions) transactions with the same causes, origins, \(options.ignoreLocations ? "" : "write sites, ")values and graph", false)
        }
        var lines = [style.bold("\(a.path) and \(b.path) diverge at step \(step)") + style.dim(" (after \(comparison.matchingTransactions) matching transactions; - \(a.path), + \(b.path))")]
        func describe(_ transaction: Transaction?) -> String {
            guard let transaction else { return "(no transaction)" }
            let changed = transaction.changed.isEmpty ? "-" : transaction.changed.joined(separator: ", ")
            return "\(style.cyan(transaction.cause)) \(changed)\(transaction.at.map { " @ " + $0 } ?? "")"
        }
        if comparison.transactionA != nil || comparison.transactionB != nil {
            lines.append(style.red("- \(describe(comparison.transactionA))"))
            lines.append(style.green("+ \(describe(comparison.transactionB))"))
        }
        for difference in comparison.differences {
            if let diff = difference.diff, let atom = difference.atom {
                lines.append(style.bold("~ \(atom)"))
                lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    "  " + (line.hasPrefix("-") ? style.red(String(line)) : line.hasPrefix("+") ? style.green(String(line)) : String(line))
                }
            } else {
                let subject = difference.atom.map { "\(difference.kind) of \($0)" } ?? difference.kind
                lines.append("\(style.bold(subject)): \(style.red(difference.a)) ≠ \(style.green(difference.b))")
            }
        }
        return (lines.joined(separator: "\n"), true)
    }
}
