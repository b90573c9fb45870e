/// The exit statuses of `atoms-inspect` (sysexits style).
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// A check failed, `diff --exit-code` found differences, `find` found no step, or
    /// `compare` found the journals diverge.
    case failed = 1
    /// Bad usage: unknown option, bad step number, unknown atom, a report over its size limit.
    case usage = 64
    /// Malformed journal, state file or rules file.
    case dataError = 65
    /// A file is missing or unreadable.
    case noInput = 66
    /// Graphviz `dot` is not installed (or failed), or DuckDB, for `export --format parquet`.
    case unavailable = 69
    /// An output file cannot be created, or `export`'s output folder already holds files.
    case cannotCreate = 73
    /// Standard output (or an output file) could not be written: closed, full, or a broken pipe.
    case ioError = 74
    /// The journal changed while it was being read (truncated, or recorded again at the same
    /// path): run the command again.
    case tryAgain = 75
}
