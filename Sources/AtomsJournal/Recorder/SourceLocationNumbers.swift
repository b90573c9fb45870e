import Atoms

/// The journal's numbers for source locations: a write site or a subscriber's location is
/// numbered the first time a line names it, and its `loc` line is appended then, before the
/// line that uses it. Keyframes list every location numbered so far.
struct SourceLocationNumbers: Sendable {
    /// Every location numbered, with its number.
    private(set) var ids: [SourceLocation: Int] = [:]
    /// The write site numbered last, with its number.
    private var lastWriteSite: (location: SourceLocation, id: Int)?

    /// The number of a write site's location (0 for none), appending its `loc` line (with its
    /// newline) to `lines` the first time.
    mutating func writeSite(_ location: SourceLocation?, lines: inout [UInt8]) -> Int {
        guard let location else { return 0 }
        // Consecutive transactions usually come from the same place: skip hashing then.
        if let last = lastWriteSite, last.location == location {
            return last.id
        }
        let id = number(of: location, lines: &lines)
        lastWriteSite = (location, id)
        return id
    }

    /// The number of a subscriber's location, in the write sites' numbering, appending its
    /// `loc` line the first time (it leaves the last write site as it was).
    mutating func subscriber(_ location: SourceLocation, lines: inout [UInt8]) -> Int {
        if let last = lastWriteSite, last.location == location {
            return last.id
        }
        return number(of: location, lines: &lines)
    }

    /// The location's number, numbering it and appending its `loc` line when it is new.
    private mutating func number(of location: SourceLocation, lines: inout [UInt8]) -> Int {
        if let known = ids[location] {
            return known
        }
        let id = ids.count + 1
        ids[location] = id
        lines.append(contentsOf: LocationRecord.line(id: id, at: location.description).utf8)
        lines.append(0x0A)
        return id
    }
}
