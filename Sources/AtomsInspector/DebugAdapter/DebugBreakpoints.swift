import AtomsJournalReader

/// The breakpoints a client set, and the search for the next step one of them stops at.
///
/// - Line breakpoints stop at each step whose write site is their file and line
///   (``WriteSiteIndex``).
/// - Data breakpoints (an atom's variable) and function breakpoints (an atom's name) stop at
///   each step that writes, creates or releases the atom: the step prompt's `find`
///   (``JournalSearch``), which skips the lines of other atoms on their bytes.
/// - A condition, in the `where` language, must hold after the transaction.
///
/// Each kind is searched on its own and the nearest hit wins; a hit whose condition fails is
/// passed and the search goes on from it.
struct DebugBreakpoints {
    /// Why a breakpoint stops.
    enum Kind: Equatable {
        /// A line breakpoint: steps written at one of these sites.
        case line(sites: [String])
        /// A data breakpoint on an atom's variable.
        case data(atom: String)
        /// A function breakpoint naming an atom.
        case function(atom: String)

        /// The `stopped` event's reason.
        var reason: String {
            switch self {
            case .line: "breakpoint"
            case .data: "data breakpoint"
            case .function: "function breakpoint"
            }
        }
    }

    /// One breakpoint that can stop.
    struct Breakpoint {
        let id: Int
        let kind: Kind
        /// Bound once, when set.
        let condition: BoundExpression?
    }

    /// Line breakpoints by the client's path (canonical).
    var lines: [String: [Breakpoint]] = [:]
    var data: [Breakpoint] = []
    var functions: [Breakpoint] = []
    private var nextID = 1

    /// A new breakpoint number.
    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    var all: [Breakpoint] {
        lines.keys.sorted().flatMap { lines[$0]! } + data + functions
    }

    /// What a search found.
    struct Hit: Equatable {
        let step: Int
        let breakpoints: [Int]
        let reason: String
    }

    /// The nearest step after `position` (before it, `backwards`) where a breakpoint stops,
    /// `nil` when none does.
    ///
    /// - Complexity: Per data or function breakpoint, the step prompt's `find` from the
    ///   position to its next hit; per line breakpoint, a binary search of the index.
    func next(in journal: InspectedJournal, sites: WriteSiteIndex?, from position: Int, backwards: Bool) throws(InspectorError) -> Hit? {
        let breakpoints = all
        guard !breakpoints.isEmpty else { return nil }
        // Each breakpoint's next hit beyond `cursor`; recomputed only for those passed.
        var hits: [Int?] = []
        for breakpoint in breakpoints {
            hits.append(try nextHit(breakpoint, in: journal, sites: sites, after: position, backwards: backwards))
        }
        while true {
            let candidates = hits.compactMap { $0 }
            guard let step = backwards ? candidates.max() : candidates.min() else { return nil }
            var stopping: [Breakpoint] = []
            for (index, breakpoint) in breakpoints.enumerated() where hits[index] == step {
                if try holds(breakpoint.condition, at: step, in: journal) {
                    stopping.append(breakpoint)
                }
            }
            if let first = stopping.first {
                return Hit(step: step, breakpoints: stopping.map(\.id), reason: first.kind.reason)
            }
            for (index, breakpoint) in breakpoints.enumerated() where hits[index] == step {
                hits[index] = try nextHit(breakpoint, in: journal, sites: sites, after: step, backwards: backwards)
            }
        }
    }

    private func nextHit(_ breakpoint: Breakpoint, in journal: InspectedJournal, sites: WriteSiteIndex?, after position: Int, backwards: Bool) throws(InspectorError) -> Int? {
        switch breakpoint.kind {
        case .line(let lineSites):
            guard let sites else { return nil }
            let steps = lineSites.compactMap { sites.next(at: $0, from: position, backwards: backwards) }
            return backwards ? steps.max() : steps.min()
        case .data(let atom), .function(let atom):
            switch try JournalSearch.next(.changes(atom), in: journal, from: position, backwards ? .backward : .forward) {
            case .found(let step): return step
            case .none, .interrupted: return nil
            }
        }
    }

    private func holds(_ condition: BoundExpression?, at step: Int, in journal: InspectedJournal) throws(InspectorError) -> Bool {
        guard var condition else { return true }
        let state = try journal.state(at: step, decodingValuesOf: [])
        // An atom declared anew since the condition was bound has a new number.
        condition.learn(state.declarations.values)
        return condition.holds(in: try journal.state(at: step, decodingValuesOf: condition.atomIDs).values)
    }
}
