/// The journal file format's name and version; see `docs/JOURNAL_FORMAT.md`.
public enum JournalFormat {
    /// The `format` field of the header line.
    public static let name = "atoms-journal"
    /// The major version this library writes and reads. Readers reject other major versions.
    public static let majorVersion = 1
    /// The minor version this library writes. Minor versions only add optional fields; readers
    /// ignore fields they do not know.
    public static let minorVersion = 0
    /// Keyframes are written every this many transactions unless configured otherwise.
    public static let defaultKeyframeInterval = 256
}
