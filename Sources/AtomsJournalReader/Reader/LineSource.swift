import Synchronization

/// A segment's lines read by offset, with the segment's scanner, from any thread.
final class LineSource: Sendable {
    let scanner: LineScanner
    private let reader: Mutex<LineReader>

    init(file: JournalFile, scanner: LineScanner) {
        self.scanner = scanner
        reader = Mutex(LineReader(file: file))
    }

    /// Reads the line at `offset` with `body`, which gets the scanner, the bytes and the
    /// line's range in them.
    ///
    /// - Throws: ``JournalError`` naming the line when `body` rejects it.
    func read<Result>(lineAt offset: Int, _ body: (LineScanner, UnsafeRawBufferPointer, Range<Int>) throws -> Result) throws(JournalError) -> Result {
        let scanner = self.scanner
        // Unchecked: the result is made and handed out by this thread; the lock only guards
        // the reader's buffer while the line is read.
        nonisolated(unsafe) var result: Result?
        try reader.withLock { reader throws(JournalError) in
            result = try readLine(&reader, at: offset, scanner: scanner, body)
        }
        return result!
    }
}
