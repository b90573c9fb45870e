import AtomsJournalReader

/// Every step of a journal by its write site (`fileID:line`): what line breakpoints stop at,
/// what `gotoTargets` offers, and which lines of a file have a write at all.
///
/// Made with one pass over the transactions' envelopes (values are not decoded), the first
/// time a line breakpoint or a goto target is asked for, and extended when the journal grows
/// (a program being recorded).
///
/// - Complexity: One envelope read per step to build; a binary search per query.
final class WriteSiteIndex {
    /// Site → its steps, ascending.
    private(set) var steps: [String: [Int]] = [:]
    /// The last step indexed.
    private(set) var through: Int

    /// An empty index starting after `first` (the journal's first step has no transaction).
    init(after first: Int) {
        through = first
    }

    /// Indexes the steps up to the journal's last, with the one walk over its steps
    /// (``InspectedJournal/walk(_:through:decodingValuesOf:_:)``), decoding no values.
    func extend(_ journal: InspectedJournal) throws(InspectorError) {
        let last = journal.reader.lastStep
        guard through < last else { return }
        var state = try journal.state(at: max(through, journal.reader.firstStep), decodingValuesOf: [])
        try journal.walk(&state, through: last, decodingValuesOf: []) { record, _ throws(InspectorError) in
            if let site = record.at {
                steps[site, default: []].append(record.seq)
            }
        }
        through = last
    }

    /// The sites recorded in a file, by `#fileID` (`sample_todo/main.swift`), as lines.
    func lines(ofFileID fileID: String) -> Set<Int> {
        Set(steps.keys.compactMap { site in
            WriteSiteResolver.split(site).flatMap { $0.fileID == fileID ? $0.line : nil }
        })
    }

    /// The `#fileID`s with at least one write.
    var fileIDs: Set<String> {
        Set(steps.keys.compactMap { WriteSiteResolver.split($0)?.fileID })
    }

    /// The first step after `position` (or the last before it) at `site`.
    func next(at site: String, from position: Int, backwards: Bool) -> Int? {
        guard let steps = steps[site] else { return nil }
        // The index of the first step greater than (or, backwards, not less than) the position.
        var low = 0
        var high = steps.count
        while low < high {
            let middle = (low + high) / 2
            if backwards ? steps[middle] < position : steps[middle] <= position {
                low = middle + 1
            } else {
                high = middle
            }
        }
        if backwards {
            return low > 0 ? steps[low - 1] : nil
        }
        return low < steps.count ? steps[low] : nil
    }
}
