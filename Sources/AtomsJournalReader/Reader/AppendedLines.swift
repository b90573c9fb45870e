/// Reads the complete lines appended to a file that is still being written (a journal being
/// recorded), through the same in-order loop as every other reader
/// (``LineReader/readOn(from:to:_:)``), over the file's bytes up to its size at the call.
///
/// A line not yet ended by its newline is left for a later call. The caller owns the
/// descriptor and notices a file replaced under it (by its size and identity) itself.
package enum AppendedLines {
    /// Runs `body` on each complete line from `offset` (a line start) to the file's present
    /// end, until `body` stops.
    ///
    /// - Parameters:
    ///   - descriptor: The file, open for reading; it is duplicated, not taken.
    ///   - path: The file's path, for messages.
    ///   - body: Called with the read buffer and the line's range in it (without its newline)
    ///     and the line's file offset; returns whether to read on after it.
    /// - Returns: The offset of the first line not taken.
    /// - Throws: What `body` throws, and ``JournalError`` when the file cannot be read or was
    ///   truncated while reading.
    package static func read(
        _ descriptor: Int32, path: String, from offset: Int,
        _ body: (UnsafeRawBufferPointer, Range<Int>, Int) throws(JournalError) -> Bool
    ) throws(JournalError) -> Int {
        let file = try JournalFile(following: descriptor, path: path)
        var reader = LineReader(file: file)
        // The scanner is not used: `body` reads the line as it needs.
        return try readLines(&reader, from: offset, to: file.count, scanner: LineScanner(version: JournalFormat.majorVersion)) { _, raw, line in
            guard line.isTerminated else { return .stopBefore }
            return try body(raw, line.range, line.offset) ? .next : .stopAfter
        }
    }
}
