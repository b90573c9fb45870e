import AtomsJournalReader

extension InspectorError {
    /// This error, saying so when the journal it is about was written in a later minor version
    /// of the format than this tool writes: a line this tool cannot read there may be one a
    /// later version added, not damage. Other errors are returned as they are.
    ///
    /// - Parameter header: Reads a journal file's header (``JournalHeader/read(path:)``;
    ///   tests pass their own).
    package func explainingNewerFormat(
        header: (String) throws(JournalError) -> JournalHeader = { path throws(JournalError) in try JournalHeader.read(path: path) }
    ) -> InspectorError {
        guard status == .dataError, let path, line != nil,
            let found = try? header(path), found.version == JournalFormat.majorVersion, found.minor > JournalFormat.minorVersion
        else { return self }
        let what = message.components(separatedBy: " — ").first ?? message
        return InspectorError(
            status, path: path, line: line,
            "\(what) — the journal is format \(found.version).\(found.minor), newer than this atoms-inspect reads (\(JournalFormat.majorVersion).\(JournalFormat.minorVersion)): read it with a newer atoms-inspect"
        )
    }
}
