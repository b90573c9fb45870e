import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A journal opened for inspection: the reader, with user-facing errors and step resolution.
package struct InspectedJournal: Sendable {
    /// The reader.
    package let reader: JournalReader
    /// Decoded states and transactions kept for reuse (``memoized(capacity:)``); `nil` for a
    /// command that reads each step once.
    private(set) var memo: JournalMemo?
    /// The file as it was just before it was opened (`nil` for a folder).
    private let identity: FileIdentity?

    /// Opens a journal; a progress indicator is drawn on stderr when `showProgress` and the
    /// file is large.
    ///
    /// - Throws: ``InspectorError`` with the documented exit status.
    package init(path: String, showProgress: Bool = false) throws(InspectorError) {
        // Taken before opening: a file appended meanwhile then counts as changed.
        identity = FileIdentity(path: path)
        let size = identity?.byteCount ?? 0
        let progress: ((Double) -> Void)? = showProgress && size > 64 << 20 ? { fraction in
            StandardStream.error.write("\rloading \(path) \(Int(fraction * 100))%")
        } : nil
        do {
            reader = try JournalReader(path: path, progress: progress)
        } catch {
            if progress != nil { StandardStream.error.write("\r\u{1B}[K") }
            throw InspectorError(error)
        }
        if progress != nil { StandardStream.error.write("\r\u{1B}[K") }
    }

    /// The path.
    package var path: String { reader.path }

    /// Warnings to show on stderr.
    package var warnings: [String] {
        reader.warnings.map { "atoms-inspect: \($0)" }
    }

    /// The same journal, keeping up to `capacity` decoded states and transactions for reuse
    /// (itself when it already keeps them): for sessions that come back to steps.
    package func memoized(capacity: Int = 64) -> InspectedJournal {
        guard memo == nil else { return self }
        var journal = self
        journal.memo = JournalMemo(capacity: capacity)
        return journal
    }

    /// The journal opened again to read what was appended since: itself when it is a file
    /// that nothing wrote since it was opened. Keeps decoded states when this one does.
    ///
    /// - Throws: ``InspectorError`` when it cannot be opened.
    package func reopened() throws(InspectorError) -> InspectedJournal {
        if let identity, FileIdentity(path: path) == identity {
            return self
        }
        let reopened = try InspectedJournal(path: path)
        return memo == nil ? reopened : reopened.memoized()
    }

    /// The same journal opened again, with a reader of its own, for a second thread (a
    /// reader is read by one thread at a time); without decoded states kept. `nil` when it
    /// is neither a regular file nor a folder (a pipe is read once), cannot be opened, or no
    /// longer holds what this one read: a file that changed since it was opened, or a folder
    /// whose first or last step moved.
    package func openedAgain() -> InspectedJournal? {
        guard identity != nil || FileIdentity.isFolder(path),
              let again = try? InspectedJournal(path: path), again.identity == identity,
              again.reader.firstStep == reader.firstStep, again.reader.lastStep == reader.lastStep
        else { return nil }
        return again
    }

    /// The step a spec names in this journal.
    package func step(_ spec: StepSpec) throws(InspectorError) -> Int {
        try spec.resolve(first: reader.firstStep, last: reader.lastStep, journal: path)
    }

    /// The steps `--from`/`--to` name (the journal's first and last by default), as `log` and
    /// `export` take them.
    ///
    /// - Throws: ``InspectorError`` (64) when a step is outside the journal or `from` is after `to`.
    package func steps(from: StepSpec?, to: StepSpec?) throws(InspectorError) -> ClosedRange<Int> {
        let first = try from.map { spec throws(InspectorError) in try step(spec) } ?? reader.firstStep
        let last = try to.map { spec throws(InspectorError) in try step(spec) } ?? reader.lastStep
        guard first <= last else {
            throw InspectorError(.usage, path: path, "--from \(first) is after --to \(last) — swap them")
        }
        return first...last
    }

    /// The state at a step, with the values of `atoms` only (all when `nil`; none for an
    /// empty set: declarations, liveness and the graph).
    package func state(at step: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(InspectorError) -> JournalState {
        guard let memo else { return try decodedState(at: step, decodingValuesOf: atoms) }
        return try memo.state(at: step, decodingValuesOf: atoms) { () throws(InspectorError) -> JournalState in
            try decodedState(at: step, decodingValuesOf: atoms)
        }
    }

    /// A transaction, with the values of `atoms` only (all when `nil`).
    package func transaction(_ seq: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(InspectorError) -> TransactionRecord {
        guard let memo else { return try decodedTransaction(seq, decodingValuesOf: atoms) }
        return try memo.transaction(seq, decodingValuesOf: atoms) { () throws(InspectorError) -> TransactionRecord in
            try decodedTransaction(seq, decodingValuesOf: atoms)
        }
    }

    private func decodedState(at step: Int, decodingValuesOf atoms: Set<Int>?) throws(InspectorError) -> JournalState {
        do {
            return try reader.state(at: step, decodingValuesOf: atoms)
        } catch {
            throw InspectorError(error)
        }
    }

    private func decodedTransaction(_ seq: Int, decodingValuesOf atoms: Set<Int>?) throws(InspectorError) -> TransactionRecord {
        do {
            return try reader.transaction(seq, decodingValuesOf: atoms)
        } catch {
            throw InspectorError(error)
        }
    }

    /// Every atom declared by `step`: in the first keyframe and in any transaction up to it,
    /// whether live or not. A keyframe declares only what is live, so a state read from one
    /// knows only some of the atoms released before; names of those are found here.
    ///
    /// - Complexity: One transaction envelope per step; values are not decoded.
    package func declarations(through step: Int) throws(InspectorError) -> [Int: AtomDeclaration] {
        var walked = try state(at: reader.firstStep, decodingValuesOf: [])
        var declarations = walked.declarations
        try walk(&walked, through: step, decodingValuesOf: []) { record, _ in
            for declaration in record.declare ?? [] {
                declarations[declaration.id] = declaration
            }
        }
        return declarations
    }

    /// Moves a state (read with the same `atoms`) one transaction forward, as
    /// `JournalReader.apply(_:to:decodingValuesOf:)` does; returns the transaction.
    func apply(_ seq: Int, to state: inout JournalState, decodingValuesOf atoms: Set<Int>?) throws(InspectorError) -> TransactionRecord {
        if memo != nil {
            let record = try transaction(seq, decodingValuesOf: atoms)
            var next = state
            if (try? next.apply(record, decoding: { atoms?.contains($0) ?? true })) != nil {
                state = next
                return record
            }
            // Not kept: the reader words the error, with its line.
        }
        do {
            return try reader.apply(seq, to: &state, decodingValuesOf: atoms)
        } catch {
            throw InspectorError(error)
        }
    }

    /// The state at `step` (within the journal), moved forward from `state` when that is
    /// shorter, as `JournalReader.advance(_:to:)` does.
    func advance(_ state: JournalState, to step: Int) throws(InspectorError) -> JournalState {
        guard let memo else { return try advanced(state, to: step) }
        return try memo.state(at: step, decodingValuesOf: nil) { () throws(InspectorError) -> JournalState in
            try advanced(state, to: step)
        }
    }

    private func advanced(_ state: JournalState, to step: Int) throws(InspectorError) -> JournalState {
        do {
            return try reader.advance(state, to: step)
        } catch {
            throw InspectorError(error)
        }
    }

    /// `DiffCommand.difference` between two steps, kept by a memoized journal.
    func difference(from: Int, to: Int, atoms pattern: String?, _ compare: () throws(InspectorError) -> DiffCommand.Difference) throws(InspectorError) -> DiffCommand.Difference {
        guard let memo else { return try compare() }
        return try memo.difference(from: from, to: to, atoms: pattern, compare)
    }
}
