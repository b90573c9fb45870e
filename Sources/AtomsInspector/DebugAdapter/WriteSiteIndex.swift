import AtomsJournalReader

/// Every step of a journal by its write site (`fileID:line`): what line breakpoints stop at,
/// what `gotoTargets` offers, and which lines of a file have a write at all.
///
/// Made with one pass over the transactions' envelopes in the read buffer, the first
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

    /// Indexes the steps up to the journal's last, from the envelopes `log` lists
    /// (``JournalReader/forEachTransaction(from:through:_:)``): no state, no value decoded.
    func extend(_ journal: InspectedJournal) throws(InspectorError) {
        let last = journal.reader.lastStep
        guard through < last else { return }
        do {
            try journal.reader.forEachTransaction(from: through + 1, through: last) { listed in
                switch listed {
                case .envelope(let envelope):
                    if let site = envelope.location { steps[site, default: []].append(envelope.seq) }
                case .record(let record):
                    if let site = record.at { steps[site, default: []].append(record.seq) }
                }
                return true
            }
        } catch {
            throw InspectorError(error)
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
