import Atoms

/// Timings of finished transactions as plain words (``TimingWord`` records), with the atom
/// identities and locations they declare, waiting on the main actor to go to the recorder's
/// thread with the next transaction (or at `flush()` and `close()`). Its lists keep their
/// capacity: a timed transaction allocates nothing here once they have grown.
struct CapturedTimings: ~Copyable {
    private(set) var words = WordBuffer()
    private(set) var atoms: [AtomIdentity] = []
    private(set) var locations: [SourceLocation] = []

    /// Whether no timing waits.
    var isEmpty: Bool { words.isEmpty }

    /// Adds a finished transaction's timing.
    @MainActor
    mutating func append(_ timing: TransactionTiming) {
        timing.append(to: &words, atoms: &atoms, locations: &locations)
    }

    /// Moves the waiting timings to the end of `staging`'s lists (the pipeline's lock held)
    /// and returns where they are there.
    mutating func stage(into staging: CaptureStaging) -> StagedTimings {
        let staged = StagedTimings(words: staging.timingWords.count..<staging.timingWords.count + words.count, atoms: staging.timingAtoms.count, locations: staging.timingLocations.count)
        staging.timingWords.append(contentsOf: words.words)
        words.removeAll()
        if !atoms.isEmpty {
            staging.timingAtoms.append(contentsOf: atoms)
            atoms.removeAll(keepingCapacity: true)
        }
        if !locations.isEmpty {
            staging.timingLocations.append(contentsOf: locations)
            locations.removeAll(keepingCapacity: true)
        }
        return staged
    }
}

/// Where staged timings are in a batch: their words, and the index of the first atom and
/// location they declare.
struct StagedTimings: Sendable {
    let words: Range<Int>
    let atoms: Int
    let locations: Int
}
