#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One journal file as the reader sees it: a whole unbounded journal, or one segment of a
/// bounded one. It finds lines by step and reads them with its ``LineScanner``.
protocol JournalSegment: AnyObject, Sendable {
    /// The file.
    var file: JournalFile { get }
    /// Its header line.
    var header: JournalHeader { get }
    /// Recoverable problems found while opening.
    var warnings: [JournalWarning] { get }
    /// The step of its first keyframe.
    var firstStep: Int { get }
    /// The step of its last transaction (or keyframe).
    var lastStep: Int { get }
    /// Whether it ends with the end line its recorder writes on closing.
    var isEnded: Bool { get }
    /// How many times the program waited for its recorder, as its end line says (0 without).
    var recorderWaits: Int { get }
    /// The offset just past the last line read: the file's size, or the start of a last line
    /// cut short by a crash (which every reader leaves out).
    var dataEnd: Int { get }

    /// The offset of transaction `seq`'s line (`firstStep < seq <= lastStep`), and the source
    /// locations that line may refer to.
    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String])
    /// Reads the lines after the last transaction to the end of the file, as reading on in
    /// order would (once: reading the last transaction does it too); a reader that reads the
    /// last transaction another way calls it.
    ///
    /// - Throws: ``JournalError`` for the first of those lines that is malformed or out of
    ///   sequence, as `stats`' scan names it.
    func checkToEnd() throws(JournalError)
    /// Transaction `seq` (`firstStep < seq <= lastStep`), with the values of the atoms
    /// `decoding` accepts, and its line's length.
    ///
    /// - Parameter applying: Called with the transaction once its line is read, before the
    ///   lines after the last transaction are (reading in order applies it first); what it
    ///   throws names the transaction's line.
    func transaction(_ seq: Int, decoding: (Int) -> Bool, applying: (TransactionRecord) throws(JournalState.StateError) -> Void) throws(JournalError) -> (record: TransactionRecord, lineLength: Int)
    /// The last keyframe at or before `step`: its step and offset.
    func keyframe(atOrBefore step: Int) throws(JournalError) -> (step: Int, offset: Int)
    /// The steps of every keyframe, in order.
    func keyframeSteps() throws(JournalError) -> [Int]
    /// Its lines, read by offset.
    var lines: LineSource { get }
    /// The locations a transaction anywhere in it may refer to, when that does not depend on
    /// where the transaction is (formats 2 and 3 read every `loc` line at opening); `nil`
    /// when a transaction may refer only to locations declared before it: by the first
    /// keyframe or a `loc` line (format 4, read in order).
    var locationsAnywhere: Set<Int>? { get }
}

extension JournalSegment {
    /// The file's path.
    var path: String { file.path }
    /// The file's size in bytes.
    var fileSize: Int { file.count }
    /// The scanner for this segment's version.
    var scanner: LineScanner { LineScanner(version: header.version) }

    /// The line number (from 1) of the line at `offset`, for messages.
    func lineNumber(at offset: Int) -> Int {
        file.lineNumber(at: offset)
    }
}

/// Reads one line with a line reader, turning what `body` throws into the line's error.
func readLine<Result>(
    _ reader: inout LineReader, at offset: Int, scanner: LineScanner,
    _ body: (LineScanner, UnsafeRawBufferPointer, Range<Int>) throws -> Result
) throws(JournalError) -> Result {
    let line = try reader.line(at: offset)
    do {
        return try reader.withBuffer { raw throws in try body(scanner, raw, line.range) }
    } catch {
        let file = reader.file
        let failure: JournalError = reader.withBuffer { raw in
            JournalError.line(error, path: file.path, bytes: raw, range: line.range, number: file.lineNumber(at: offset))
        }
        throw failure
    }
}

/// Reads the lines from `offset` before `end` in order through the one in-order loop
/// (``LineReader/readOn(from:to:_:)``), until `body` stops; what `body` throws becomes the
/// line's error (its file, number and bytes), as ``readLine(_:at:scanner:_:)`` words it.
///
/// - Returns: The offset of the first line not taken (`end` when every line was).
@discardableResult
func readLines(
    _ reader: inout LineReader, from offset: Int, to end: Int, scanner: LineScanner,
    _ body: (LineScanner, UnsafeRawBufferPointer, LineReader.Line) throws -> LineReader.Reading
) throws(JournalError) -> Int {
    let file = reader.file
    var offset = offset
    var stopped = false
    while offset < end, !stopped {
        offset = try reader.readOn(from: offset, to: end) { raw, line throws(JournalError) -> LineReader.Reading in
            let reading: LineReader.Reading
            do {
                reading = try body(scanner, raw, line)
            } catch {
                throw JournalError.line(error, path: file.path, bytes: raw, range: line.range, number: file.lineNumber(at: line.offset))
            }
            if reading != .next { stopped = true }
            return reading
        }
    }
    return offset
}

/// The first line of a journal file: its header, and the offset of line 2.
func readHeader(_ reader: inout LineReader) throws(JournalError) -> (header: JournalHeader, next: Int) {
    let file = reader.file
    guard file.count > 0 else { throw .empty(path: file.path) }
    // Looked for no further than a header may be long: a large file of something else (a
    // disk image, a core file) is rejected without being read.
    let limit = min(file.count, LineScanner.maximumHeaderLength + 1)
    var start = [UInt8](repeating: 0, count: limit)
    let read: JournalError? = start.withUnsafeMutableBytes { raw in
        do throws(JournalError) {
            try file.read(into: raw.baseAddress!, at: 0, length: limit)
            return nil
        } catch {
            return error
        }
    }
    if let read { throw read }
    guard start.contains(0x0A) || limit == file.count else {
        throw .notAJournal(path: file.path, found: String(decoding: start.prefix(80), as: UTF8.self))
    }
    let line = try reader.line(at: 0)
    let header = try reader.withBuffer { raw throws(JournalError) in
        try LineScanner.header(in: raw, line.range, path: file.path)
    }
    return (header, line.next)
}

extension JournalHeader {
    /// The header of the journal file at `path`, read alone (for saying more about an error
    /// found in the file's lines).
    ///
    /// - Throws: ``JournalError`` when the file cannot be read or its first line is not a
    ///   journal header.
    package static func read(path: String) throws(JournalError) -> JournalHeader {
        var reader = LineReader(file: try JournalFile(path: path))
        return try readHeader(&reader).header
    }
}
