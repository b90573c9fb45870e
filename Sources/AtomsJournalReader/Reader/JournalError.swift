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
    /// The file was truncated or rewritten (a new recording at the same path) while it was
    /// being read: what was read so far no longer matches it.
    case changedWhileReading(path: String)

    /// `path[:line]: message — what to do`.
    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
    }

    /// The file the error is about.
    public var path: String {
        switch self {
        case .cannotRead(let path, _), .cannotCreate(let path, _), .writeFailed(let path, _), .empty(let path),
            .notAJournal(let path, _), .unsupportedVersion(let path, _), .malformedLine(let path, _, _),
            .notUTF8(let path, _), .duplicateSequence(let path, _, _), .missingSequence(let path, _, _, _),
            .stepOutOfRange(let path, _, _, _), .malformedStateFile(let path, _), .changedWhileReading(let path):
            path
        }
    }

    /// The line the error is about (1-based), when it is about one.
    public var line: Int? {
        switch self {
        case .notAJournal, .unsupportedVersion: 1
        case .malformedLine(_, let line, _), .notUTF8(_, let line), .duplicateSequence(_, let line, _),
            .missingSequence(_, let line, _, _):
            line
        default: nil
        }
    }

    /// What is wrong and what to do, without the location.
    public var reason: String {
        switch self {
        case .cannotRead(_, let reason):
            "cannot read: \(reason) — check the path and permissions"
        case .cannotCreate(_, let reason):
            "cannot create: \(reason) — check that the directory exists and is writable"
        case .writeFailed(_, let reason):
            "write failed: \(reason) — check free space and where the path leads (what was written before stays intact)"
        case .empty:
            "empty file, not a journal (a recording stopped before it began writes nothing) — record one with JournalRecorder or a sample's --journal"
        case .notAJournal(_, let found):
            "not an atoms journal (first line starts \(found.prefix(40).debugDescription)) — pass a file written by JournalRecorder"
        case .unsupportedVersion(_, let version):
            "journal format version \(version) is not supported (this tool reads versions \(JournalFormat.readableMajorVersions.map(String.init).joined(separator: ", "))) — use a matching atoms-inspect"
        case .malformedLine(_, _, let reason):
            "malformed journal line: \(reason) — the file is damaged; restore it or cut the journal before this line"
        case .notUTF8:
            "line is not valid UTF-8 — the file is damaged or not a journal"
        case .duplicateSequence(_, _, let seq):
            "transaction \(seq) appears twice — journals from two sessions were concatenated; split them"
        case .missingSequence(_, _, let expected, let found):
            "expected transaction \(expected) but found \(found) — transactions are missing; the journal cannot be replayed past \(expected - 1)"
        case .stepOutOfRange(_, let step, let first, let last):
            "step \(step) is outside the journal (steps \(first)…\(last)) — pick a step in that range, or last / last-K"
        case .malformedStateFile(_, let reason):
            "not a valid atoms state file: \(reason) — write one with `atoms-inspect restore`"
        case .changedWhileReading:
            "the journal changed while it was being read (truncated, or recorded again at the same path) — open it again"
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
