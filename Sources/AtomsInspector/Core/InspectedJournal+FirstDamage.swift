import AtomsJournalReader

extension InspectedJournal {
    /// Runs `body`, a reading of every line of the journal (`stats`, `find`, `blame
    /// --history`), so that a damaged journal gets one verdict in every command: the first
    /// damaged line of the file.
    ///
    /// Such a command may seek (to the last keyframe, for the atoms' names) before it reads
    /// in order, and so meet a later damaged line first. When `body` fails on a line, the
    /// journal's lines before it are checked in order, as `stats`' scan checks them, and an
    /// earlier damaged line is named instead. Only a failing command pays for the check.
    ///
    /// - Throws: ``InspectorError``: `body`'s, or the one naming an earlier line.
    package func readingEveryLine<Result>(_ body: () throws(InspectorError) -> Result) throws(InspectorError) -> Result {
        do {
            return try body()
        } catch {
            guard error.path == path, let line = error.line else { throw error }
            do {
                _ = try reader.summary()
            } catch let earlier {
                if earlier.path == path, let earlierLine = earlier.line, earlierLine < line {
                    throw InspectorError(earlier)
                }
            }
            throw error
        }
    }
}
