/// The journal file format's name and version; see `docs/JOURNAL_FORMAT.md`.
public enum JournalFormat {
    /// The `format` field of the header line.
    public static let name = "atoms-journal"
    /// The major version this library writes. A new major version changes the shape of lines.
    public static let majorVersion = 4
    /// The major versions this library reads: version 1 (self-describing transaction objects),
    /// version 2 (compact transaction arrays, location lines, member patches), version 3
    /// (value deltas at any depth, canonical order of sets and dictionaries) and version 4
    /// (keyframes that list locations, so reading starts at any keyframe without scanning;
    /// an end line; bounded journals of segments).
    package static let readableMajorVersions = [1, 2, 3, 4]
    /// The first major version read without scanning the whole file: its keyframes carry
    /// everything needed to read on from them.
    package static let firstSeekableVersion = 4
    /// The minor version this library writes. Minor versions add optional fields and line
    /// types, which readers ignore when they do not know them. 4.1 added timing lines; 4.2
    /// makes them compact (a few small integers relative to their transaction), names a
    /// subscriber's location in graph changes by the number of its location line, as write
    /// sites are (which a 4.1 reader rejects), and says `"timed":false` in the header of a
    /// journal without timing lines. 4.3 packs a timing line into a string of digits, names
    /// subscribers by their `loc` numbers and leaves out what repeats the line before (a 4.2
    /// reader rejects it). 4.4 writes a transaction's graph changes as positional lists and
    /// a declared atom's type by the number of a location line, so a family's type is written
    /// once and each member by its key (a 4.3 reader rejects such a line).
    public static let minorVersion = 4
    /// The first minor version of format 4 whose recorders write timing lines.
    package static let timedMinorVersion = 1
    /// The first minor version of format 4 whose header says whether it has timing lines
    /// (`timed`); before it, the minor version did (4.1 with them, 4.0 without).
    package static let timedFieldMinorVersion = 2
    /// The first minor version of format 4 whose timing lines are compact
    /// (`CompactTimingLine`).
    package static let compactTimingMinorVersion = 2
    /// The first minor version of format 4 whose timing lines are packed
    /// (`PackedTimingLine`).
    package static let packedTimingMinorVersion = 3
    /// The steps a journal may hold: from 0 to 2^53 − 1, exact as JSON numbers in any reader,
    /// and far enough from `Int.max` that step arithmetic (`last-K`, `next N`) cannot overflow.
    package static let stepRange = 0...((1 << 53) - 1)
    /// The fewest transactions between keyframes unless configured otherwise.
    public static let defaultKeyframeInterval = 256
}
