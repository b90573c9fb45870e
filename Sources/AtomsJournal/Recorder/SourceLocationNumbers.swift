import Atoms

/// The journal's numbers for source locations and, from format 4.4, for the type names atom
/// declarations refer to: a write site, a subscriber's location or a declared atom's type is
/// numbered the first time a line names it, and its `loc` line is appended then, before the
/// line that uses it. Keyframes list every number given so far (``declarations``).
struct SourceLocationNumbers: Sendable {
    /// Every location numbered, with its number.
    private var ids: [SourceLocation: Int] = [:]
    /// Every other text numbered (declared atoms' type names), with its number: one
    /// numbering with the locations'.
    private var texts: [String: Int] = [:]
    /// The text numbered last, with its number: a family's members come in runs.
    private var lastText: (text: String, id: Int)?
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

    /// The number of a text other than a source location (a declared atom's type name),
    /// appending its `loc` line the first time.
    mutating func text(_ text: String, lines: inout [UInt8]) -> Int {
        if let last = lastText, last.text == text {
            return last.id
        }
        let id: Int
        if let known = texts[text] {
            id = known
        } else {
            id = declare(text, lines: &lines)
            texts[text] = id
        }
        lastText = (text, id)
        return id
    }

    /// Every number given so far, in order, as a keyframe's `locs` lists them.
    var declarations: [LocationDeclaration] {
        (ids.map { LocationDeclaration(id: $0.value, at: $0.key.description) } + texts.map { LocationDeclaration(id: $0.value, at: $0.key) })
            .sorted { $0.id < $1.id }
    }

    /// The location's number, numbering it and appending its `loc` line when it is new.
    private mutating func number(of location: SourceLocation, lines: inout [UInt8]) -> Int {
        if let known = ids[location] {
            return known
        }
        let id = declare(location.description, lines: &lines)
        ids[location] = id
        return id
    }

    /// The next number, for `text`, with its `loc` line appended.
    private func declare(_ text: String, lines: inout [UInt8]) -> Int {
        let id = ids.count + texts.count + 1
        lines.append(contentsOf: LocationRecord.line(id: id, at: text).utf8)
        lines.append(0x0A)
        return id
    }
}
