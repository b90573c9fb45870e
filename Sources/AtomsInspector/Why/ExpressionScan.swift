import AtomsJournalReader

/// Walks a journal's steps evaluating a ``BoundExpression`` (or looking for changes of some
/// atoms), decoding only the values of the atoms it reads: the one search under ``JournalSearch``
/// and ``FindCommand``.
///
/// Lines in the common shape are skipped on their bytes (``TransactionWalk``); where one
/// writes a named atom, the expression is decided on the value's bytes
/// (``CompiledCondition``), and the state is brought up to date only at a step found.
struct ExpressionScan {
    let journal: InspectedJournal
    /// What a step must do to be found.
    let target: Target

    /// What the scan looks for.
    enum Target {
        /// Steps where the expression becomes true (or holds).
        case expression(BoundExpression)
        /// Steps whose transaction writes, creates or releases one of these atoms.
        case changes(Set<Int>)
    }

    init(journal: InspectedJournal, expression: BoundExpression) {
        self.journal = journal
        target = .expression(expression)
    }

    init(journal: InspectedJournal, changesOf atoms: Set<Int>) {
        self.journal = journal
        target = .changes(atoms)
    }

    /// Calls `found` with each step in `from...through` where the expression becomes true (it
    /// holds there and not at the step before; at the journal's first step, where it holds)
    /// with the state there, the transaction that led to it (`nil` at the journal's first
    /// step) and the expression with every number of its atoms learned so far, in order. With
    /// `holding`, every step where it holds. For ``Target/changes(_:)``, every step that
    /// changes one of the atoms (the expression passed is `nil`).
    ///
    /// An atom released and seen again after a keyframe has a new number: the scan learns it
    /// from the transaction that declares it, and reads that transaction's value of it.
    ///
    /// - Parameters:
    ///   - limit: Stop after this many steps.
    ///   - progress: Called every few thousand steps; returning `false` stops the scan.
    ///   - readingOn: Having searched `through` (short of the limit), read on to the next
    ///     step's line as reading on in order would (``TransactionWalk/readOnToTheNextStep()``):
    ///     a search's first half, which meets damage where the halves join as one pass does.
    ///   - ends: Told where the walk began and ended, for joining two halves.
    /// - Returns: `false` when `progress` stopped the scan, `true` when it ran to its end.
    /// - Complexity: One transaction envelope per step, read at byte speed; the expression is
    ///   evaluated only where a line writes, creates or releases one of the atoms; a line is
    ///   decoded only where it is not in the common shape (``TransactionWalk``).
    @discardableResult
    func steps(
        from: Int, through: Int, holding: Bool = false, limit: Int = .max, progress: SearchProgress? = nil, readingOn: Bool = false, ends: ScanEnds? = nil,
        _ found: (_ state: JournalState, _ record: TransactionRecord?, _ expression: BoundExpression?) throws(InspectorError) -> Void
    ) throws(InspectorError) -> Bool {
        guard from <= through, limit > 0 else { return true }
        var expression: BoundExpression?
        var atoms: Set<Int>
        switch target {
        case .expression(let bound): (expression, atoms) = (bound, bound.atomIDs)
        case .changes(let ids): (expression, atoms) = (nil, ids)
        }
        // Start a step early so that whether it becomes true at `from` is known.
        let start = from > journal.reader.firstStep ? from - 1 : from
        var state = try journal.state(at: start, decodingValuesOf: atoms)
        if expression?.learn(state.declarations.values) == true {
            atoms = expression!.atomIDs
            state = try journal.state(at: start, decodingValuesOf: atoms)
        }
        ends?.startValues = state.values.filter { atoms.contains($0.key) }
        ends?.startDeclarations = state.declarations
        var condition = expression.map(CompiledCondition.init)
        var holds = expression?.holds(in: state.values) ?? false
        var count = 0
        if start == from, holds {
            try found(state, nil, expression)
            count += 1
        }
        guard start < through else { return true }
        let walk = TransactionWalk(journal.reader, after: state, decodingValuesOf: atoms)
        /// A step skipped on its bytes matched: the state settled and the step read, for the
        /// caller.
        func report(_ seq: Int) throws(InspectorError) {
            do {
                try walk.settle(&state)
            } catch {
                throw InspectorError(error)
            }
            // Its locations as the walk knows them, as for the steps it reads in full.
            var record = walk.lastSkippedTransaction(seq, decodingValuesOf: atoms)
            if record == nil { record = try journal.transaction(seq, decodingValuesOf: atoms) }
            try found(state, record, expression)
            count += 1
        }
        // Made once: a method reference made at each step costs a closure context each.
        let pending: CompiledCondition.Pending = { walk.pendingValue(of: $0) }
        var seq = start + 1
        while seq <= through, count < limit {
            if let progress, seq & 0x3FFF == 0, !progress(seq, from...through) {
                return false
            }
            // A run of steps decided on their bytes, up to the next progress report; while the
            // expression holds and every step is wanted, each is taken one by one below.
            if !(holding && holds) {
                var runMatched = false
                let runEnd = progress == nil ? through : min(through, seq | 0x3FFF)
                let skipped: Int
                // A constant for the run: the closure reads it at each step without copying it
                // out of a box.
                let runCondition = condition
                do {
                    skipped = try walk.skip(through: runEnd, &state) { values in
                        guard let condition = runCondition else {
                            runMatched = true
                            return false
                        }
                        let now = condition.holds(in: values, pending: pending)
                        runMatched = now && (holding || !holds)
                        holds = now
                        return !runMatched
                    }
                } catch {
                    throw InspectorError(error)
                }
                seq += skipped
                if runMatched {
                    try report(seq - 1)
                }
                if skipped > 0 { continue }
            }
            let record: TransactionRecord?
            do {
                record = try walk.advance(&state)
            } catch {
                throw InspectorError(error)
            }
            if let declared = record?.declare, expression != nil {
                let known = atoms
                if expression!.learn(declared) {
                    atoms = expression!.atomIDs
                    condition = CompiledCondition(expression!)
                    try takeValues(of: atoms.subtracting(known), at: seq, into: &state)
                    walk.decodeValues(of: atoms)
                }
            }
            let matched: Bool
            if let expression {
                let before = holds
                if let record, Self.touches(record, atoms) {
                    holds = expression.holds(in: state.values)
                } else if record == nil, walk.wroteKept, let condition {
                    // Decided on the bytes the line wrote.
                    holds = condition.holds(in: state.values, pending: pending)
                }
                matched = holds && (holding || !before)
            } else {
                matched = record.map { Self.touches($0, atoms) } ?? walk.wroteKept
            }
            if matched {
                if let record {
                    do {
                        try walk.settle(&state)
                    } catch {
                        throw InspectorError(error)
                    }
                    try found(state, record, expression)
                    count += 1
                } else {
                    try report(seq)
                }
            }
            seq += 1
        }
        do {
            if readingOn, count < limit {
                ends?.nextLine = try walk.readOnToTheNextStep()
            }
            if let ends {
                try walk.settle(&state)
                ends.endValues = state.values.filter { atoms.contains($0.key) }
                ends.endDeclarations = state.declarations
                ends.firstLine = walk.startedAt
                ends.startLocations = walk.startLocations
                ends.endLocations = walk.locations
            }
        } catch {
            throw InspectorError(error)
        }
        return true
    }

    /// Sets the values that transaction `seq` gives atoms it declares, which `state` has
    /// applied without decoding them. A declared atom is new to any reader, so its value there
    /// is whole.
    private func takeValues(of learned: Set<Int>, at seq: Int, into state: inout JournalState) throws(InspectorError) {
        var values = try journal.transaction(seq, decodingValuesOf: learned)
        values.values = values.values?.filter { learned.contains($0.id) }
        (values.declare, values.created, values.released) = (nil, nil, nil)
        (values.edgesAdded, values.edgesRemoved, values.subsAdded, values.subsRemoved) = (nil, nil, nil, nil)
        do {
            try state.apply(values)
        } catch {
            throw InspectorError(.dataError, path: journal.path, "transaction \(seq) \(error.message)")
        }
    }

    /// Whether a transaction changed the value of one of `atoms`
    /// (``TransactionRecord/changed(anyOf:)``: an equal write is not a change), created or
    /// released one: where an atom search stops, and where a condition may have become true.
    static func touches(_ record: TransactionRecord, _ atoms: Set<Int>) -> Bool {
        record.changed(anyOf: atoms) || record.createdOrReleased(anyOf: atoms)
    }
}

/// Where a search's walk began and ended, for joining it to the search of the steps after it
/// (``FindCommand``'s halves): the values of the atoms it read at its start and at its end,
/// the line its first step was found at, and the line of the step after its last (read on to).
package final class ScanEnds {
    var startValues: [Int: ValueEntry] = [:]
    var endValues: [Int: ValueEntry] = [:]
    /// The atoms declared where the walk started, and where it ended (the names its matches
    /// carry).
    var startDeclarations: [Int: AtomDeclaration] = [:]
    var endDeclarations: [Int: AtomDeclaration] = [:]
    var firstLine: TransactionWalk.LinePlace?
    var nextLine: TransactionWalk.LinePlace?
    /// The locations known where the walk started, and where it ended.
    var startLocations: [Int: String]?
    var endLocations: [Int: String]?

    package init() {}

    /// Whether the search after this one (`later`, from the step after this one's last)
    /// started where this one ended: at the line it read on to (or at a segment's first
    /// step, when this one ended its segment at `last`), from the values it ended with. A
    /// journal whose halves do not join so (a run of steps written again across the join,
    /// a keyframe at the middle that disagrees with the steps before it, in its values, its
    /// declarations or its locations) is read in one pass.
    func isJoined(to later: ScanEnds, after last: Int) -> Bool {
        let lines = nextLine.map { $0 == later.firstLine } ?? (later.firstLine?.segmentFirstStep == last)
        guard lines else { return false }
        // Within a segment (a segment's numbers are its own), the later search knows the
        // locations this one does, alike, and no others (a keyframe may list one no line
        // declares).
        if nextLine != nil, let endLocations, let startLocations = later.startLocations, endLocations != startLocations {
            return false
        }
        // A keyframe declares the live atoms (not those released before it): each as the
        // lines declared it.
        guard later.startDeclarations.allSatisfy({ endDeclarations[$0.key] == $0.value }) else { return false }
        guard Set(endValues.keys) == Set(later.startValues.keys) else { return false }
        return endValues.allSatisfy { id, entry in
            let other = later.startValues[id]!
            return entry.v == other.v && entry.dump == other.dump && entry.phase == other.phase
        }
    }
}
