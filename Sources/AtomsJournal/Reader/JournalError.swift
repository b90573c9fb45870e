/// Everything that can be wrong with a journal or state file, each naming the input (and the
/// line) and what to do.
public enum JournalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case cannotRead(path: String, reason: String)
    /// The file cannot be created for writing.
    case cannotCreate(path: String, reason: String)
    /// Writing failed (disk full, say).
    case writeFailed(path: String, reason: String)
    /// The file is empty.
    case empty(path: String)
    /// The first line is not a journal header.
    case notAJournal(path: String, found: String)
    /// The journal's major version is not one this library reads.
    case unsupportedVersion(path: String, version: Int)
    /// A line is not valid JSON of the expected shape.
    case malformedLine(path: String, line: Int, reason: String)
    /// A line is not valid UTF-8.
    case notUTF8(path: String, line: Int)
    /// A sequence number appears twice.
    case duplicateSequence(path: String, line: Int, seq: Int)
    /// Sequence numbers skip: transactions are missing.
    case missingSequence(path: String, line: Int, expected: Int, found: Int)
    /// A step outside the journal.
    case stepOutOfRange(path: String, step: Int, first: Int, last: Int)
    /// A state file is not valid.
    case malformedStateFile(path: String, reason: String)

    /// `path[:line]: message — what to do`.
    public var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            "\(path): cannot read: \(reason) — check the path and permissions"
        case .cannotCreate(let path, let reason):
            "\(path): cannot create: \(reason) — check that the directory exists and is writable"
        case .writeFailed(let path, let reason):
            "\(path): write failed: \(reason) — check free space; lines already written are intact"
        case .empty(let path):
            "\(path): empty file, not a journal — record one with JournalRecorder or a sample's --journal"
        case .notAJournal(let path, let found):
            "\(path):1: not an atoms journal (first line starts \(found.prefix(40).debugDescription)) — pass a file written by JournalRecorder"
        case .unsupportedVersion(let path, let version):
            "\(path):1: journal format version \(version) is not supported (this tool reads version \(JournalFormat.majorVersion)) — use a matching atoms-inspect"
        case .malformedLine(let path, let line, let reason):
            "\(path):\(line): malformed journal line: \(reason) — the file is damaged; restore it or cut the journal before this line"
        case .notUTF8(let path, let line):
            "\(path):\(line): line is not valid UTF-8 — the file is damaged or not a journal"
        case .duplicateSequence(let path, let line, let seq):
            "\(path):\(line): transaction \(seq) appears twice — journals from two sessions were concatenated; split them"
        case .missingSequence(let path, let line, let expected, let found):
            "\(path):\(line): expected transaction \(expected) but found \(found) — transactions are missing; the journal cannot be replayed past \(expected - 1)"
        case .stepOutOfRange(let path, let step, let first, let last):
            "\(path): step \(step) is outside the journal (steps \(first)…\(last)) — pick a step in that range, or last / last-K"
        case .malformedStateFile(let path, let reason):
            "\(path): not a valid atoms state file: \(reason) — write one with `atoms-inspect restore`"
        }
    }
}

/// Something odd but recoverable found while reading.
public struct JournalWarning: Equatable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The line, when it is about one.
    public let line: Int?
    /// What was found and what was done about it.
    public let message: String

    /// `path[:line]: warning: message`.
    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): warning: \(message)"
    }
}
