import Atoms
import AtomsInspector

extension AtomTestContext {
    /// Checks graph-shape rules, in the rules language of `atoms-inspect check`, against the
    /// dependency graph as the context's journal holds it now.
    ///
    /// ## Example
    /// ```swift
    /// try context.checkGraph("max-depth 4")
    /// try context.checkGraph("""
    ///     acyclic
    ///     no-edge FilterAtom -> TodosAtom
    ///     """)
    /// ```
    ///
    /// - Parameter rules: One rule per line: `edge A -> B`, `no-edge A -> B`, `node A`,
    ///   `no-node A`, `acyclic`, `max-depth N`, `max-nodes N`; `#` comments, `*` globs.
    /// - Throws: ``JournalCheckFailure`` naming the failing rules and the step, or a malformed
    ///   rule, or that the context records no journal.
    public func checkGraph(_ rules: String) throws {
        let call = "checkGraph(\"\(rules.replacingOccurrences(of: "\n", with: "; "))\")"
        let journal = try recordedJournal(for: call)
        let (step, results) = try inspecting(journal, call) { () throws(InspectorError) in
            try JournalChecks.graphResults(journal, rules: rules, named: "checkGraph rules")
        }
        let failed = results.filter { !$0.passed }
        guard failed.isEmpty else {
            let detail = failed.map { "\($0.rule) — \($0.detail ?? "")" }.joined(separator: "; ")
            throw JournalCheckFailure(check: call, step: step, journal: journal.path, detail: detail)
        }
    }

    /// Checks that `atom`'s value changed exactly `count` times so far: transactions that gave
    /// it a value different from its previous one (its first value, when created, is not a
    /// change; neither is a write of an equal value).
    ///
    /// - Throws: ``JournalCheckFailure`` listing the steps of its changes, and naming the step
    ///   of the first change past `count`.
    public func checkChanges(of atom: some Atom, count: Int) throws {
        let call = "checkChanges(of: \(AtomIdentity(atom, scope: nil, names: AtomTypeNames(type(of: atom)))), count: \(count))"
        let journal = try recordedJournal(for: call)
        let steps = try inspecting(journal, call) { () throws(InspectorError) in
            try JournalChecks.changeSteps(of: JournalChecks.numbers(of: atom, in: journal), in: journal)
        }
        guard steps.count == count else {
            let listed = steps.isEmpty ? "none" : "steps " + steps.map(String.init).joined(separator: ", ")
            let step = steps.count > count ? steps[count] : journal.reader.lastStep
            throw JournalCheckFailure(check: call, step: step, journal: journal.path, detail: "it changed \(steps.count) time\(steps.count == 1 ? "" : "s") (\(listed))")
        }
    }

    /// Checks that no transaction wrote `atom` after the first transaction that wrote
    /// `earlier` (a write is a new value or an equal one; creating an atom is not a write).
    ///
    /// - Throws: ``JournalCheckFailure`` naming the step of the first such write and the step
    ///   that wrote `earlier`.
    public func checkNoWrite(to atom: some Atom, after earlier: some Atom) throws {
        let name = AtomIdentity(atom, scope: nil, names: AtomTypeNames(type(of: atom))).description
        let earlierName = AtomIdentity(earlier, scope: nil, names: AtomTypeNames(type(of: earlier))).description
        let call = "checkNoWrite(to: \(name), after: \(earlierName))"
        let journal = try recordedJournal(for: call)
        let (writes, earlierWrites) = try inspecting(journal, call) { () throws(InspectorError) in
            (try JournalChecks.writeSteps(of: JournalChecks.numbers(of: atom, in: journal), in: journal),
             try JournalChecks.writeSteps(of: JournalChecks.numbers(of: earlier, in: journal), in: journal))
        }
        guard let first = earlierWrites.first, let late = writes.first(where: { $0 > first }) else { return }
        throw JournalCheckFailure(check: call, step: late, journal: journal.path, detail: "step \(late) wrote \(name) after step \(first) wrote \(earlierName)")
    }

    /// The context's journal, flushed and opened.
    private func recordedJournal(for call: String) throws -> InspectedJournal {
        guard let recording = recording as? JournalRecording else {
            throw JournalCheckFailure(check: call, step: nil, journal: nil, detail: "this AtomTestContext records no journal — create it with AtomTestContext(journal: .retainOnFailure)")
        }
        return try inspecting(nil, call) { () throws(InspectorError) in
            do {
                try recording.flush()
            } catch {
                throw InspectorError(.ioError, path: recording.path, "cannot write the journal: \(error)")
            }
            return try InspectedJournal(path: recording.path)
        }
    }

    /// Runs `read`, turning a journal or rules error into a check failure naming the journal.
    private func inspecting<Result>(_ journal: InspectedJournal?, _ call: String, _ read: () throws(InspectorError) -> Result) throws -> Result {
        do {
            return try read()
        } catch {
            throw JournalCheckFailure(check: call, step: nil, journal: journal?.path ?? error.path, detail: error.description)
        }
    }
}
