import AtomsJournalReader

/// The one search over a journal's steps, from a position: the step prompt's `f` and `w`,
/// and the full-screen timeline's `/`. `find --where` runs the same scan over the whole
/// journal (``FindCommand/forEachMatch(_:_:mode:progress:_:)``).
///
/// Lines that write none of the atoms searched for are skipped on their bytes; see
/// ``ExpressionScan``.
///
/// ## Example
/// ```swift
/// let outcome = try JournalSearch.next(.condition("StatsAtom.total >= 3"), in: journal, from: 12)
/// if case .found(let step) = outcome { /* move there */ }
/// ```
package enum JournalSearch {
    /// What to look for.
    package enum Query: Sendable, Equatable {
        /// The next step where a condition (as `find --where`) becomes true.
        case condition(String)
        /// The next step that changes (``TransactionRecord/changed(_:)``: an equal write is
        /// not a change), creates or releases an atom matching a name pattern (`*` globs, as
        /// `show`).
        case changes(String)
    }

    /// Which way to search from the position.
    package enum Direction: Sendable, Equatable {
        /// The first step after the position.
        case forward
        /// The last step before the position.
        case backward
    }

    /// How a search ended.
    package enum Outcome: Sendable, Equatable {
        /// The step found.
        case found(Int)
        /// No step in that direction.
        case none
        /// ``SearchProgress`` stopped it; the step it had reached.
        case interrupted(at: Int)
    }

    /// Searches from `position` (excluded) in `direction`.
    ///
    /// - Parameters:
    ///   - progress: Called every few thousand steps; returning `false` stops the search.
    /// - Throws: ``InspectorError`` (usage) for a malformed condition or a name that matches no
    ///   atom, or a journal error from reading the steps.
    /// - Complexity: One envelope per step between the start and the match (a backward search
    ///   reads from the journal's first step); values only of the atoms named.
    package static func next(_ query: Query, in journal: InspectedJournal, from position: Int, _ direction: Direction = .forward, progress: SearchProgress? = nil) throws(InspectorError) -> Outcome {
        let scan = try scan(query, in: journal)
        let reader = journal.reader
        var target: Int?
        let completed: Bool
        var reached = position
        let watching: SearchProgress? = progress.map { progress in
            { step, steps in
                reached = step
                return progress(step, steps)
            }
        }
        switch direction {
        case .backward:
            // The last step before here: one pass from the start.
            completed = try scan.steps(from: reader.firstStep, through: position - 1, progress: watching) { state, _, _ throws(InspectorError) in
                target = state.step
            }
        case .forward:
            completed = try scan.steps(from: position + 1, through: reader.lastStep, limit: 1, progress: watching) { state, _, _ throws(InspectorError) in
                target = state.step
            }
        }
        guard completed else { return .interrupted(at: reached) }
        return target.map(Outcome.found) ?? .none
    }

    /// The scan a query needs: its condition bound to the journal's atoms, or the atoms its
    /// pattern matches.
    static func scan(_ query: Query, in journal: InspectedJournal) throws(InspectorError) -> ExpressionScan {
        switch query {
        case .condition(let text):
            return ExpressionScan(journal: journal, expression: try FindCommand.bind(text, in: journal))
        case .changes(let pattern):
            let (ids, _) = try AtomSelection.declared(pattern, in: journal, through: journal.reader.lastStep)
            return ExpressionScan(journal: journal, changesOf: ids)
        }
    }
}
