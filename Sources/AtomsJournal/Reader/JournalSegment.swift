import Foundation
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
    /// The offset just past the last line read: the file's size, or the start of a last line
    /// cut short by a crash (which every reader leaves out).
    var dataEnd: Int { get }

    /// The offset of transaction `seq`'s line (`firstStep < seq <= lastStep`), and the source
    /// locations that line may refer to.
    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String])
    /// The last keyframe at or before `step`: its step and offset.
    func keyframe(atOrBefore step: Int) throws(JournalError) -> (step: Int, offset: Int)
    /// The steps of every keyframe, in order.
    func keyframeSteps() throws(JournalError) -> [Int]
    /// Its lines, read by offset.
    var lines: LineSource { get }
}

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

/// The first line of a journal file: its header, and the offset of line 2.
func readHeader(_ reader: inout LineReader) throws(JournalError) -> (header: JournalHeader, next: Int) {
    let file = reader.file
    guard file.count > 0 else { throw .empty(path: file.path) }
    let line = try reader.line(at: 0)
    let header = try reader.withBuffer { raw throws(JournalError) in
        try LineScanner.header(in: raw, line.range, path: file.path)
    }
    return (header, line.next)
}

/// A journal of format 3 or earlier, whose keyframes do not list locations: opened by reading
/// every line once (checking each line and the sequence as it goes), then read by the
/// offsets found.
final class ScannedSegment: JournalSegment {
    let file: JournalFile
    let header: JournalHeader
    let warnings: [JournalWarning]
    let firstStep: Int
    let lastStep: Int
    var isEnded: Bool { false }
    private let transactionOffsets: [Int]
    private let keyframes: [(step: Int, offset: Int)]
    private let locations: [Int: String]
    let lines: LineSource
    let dataEnd: Int

    init(file: JournalFile, header: JournalHeader, headerEnd: Int, progress: ((Double) -> Void)?) throws(JournalError) {
        self.file = file
        self.header = header
        let scanner = LineScanner(version: header.version)
        var reader = LineReader(file: file)
        var check = SequenceCheck()
        var transactionOffsets: [Int] = []
        var keyframes: [(step: Int, offset: Int)] = []
        var locations: [Int: String] = [:]
        var warnings: [JournalWarning] = []
        var offset = headerEnd
        var reported = 0
        while offset < file.count {
            let line = try reader.line(at: offset)
            let kind: LineKind
            do {
                kind = try readLine(&reader, at: offset, scanner: scanner) { scanner, raw, range in
                    // The last line is checked whole: a crash may have cut it short.
                    let kind = try scanner.kind(of: range, in: raw, verify: !line.isTerminated || line.next >= file.count)
                    if kind == .location {
                        let location = try scanner.location(in: raw, range)
                        locations[location.id] = location.at
                    }
                    return kind
                }
            } catch {
                if !line.isTerminated {
                    warnings.append(JournalWarning(path: file.path, line: file.lineNumber(at: offset), message: Self.tornLastLine))
                    break
                }
                throw error
            }
            do {
                try check.take(kind)
            } catch {
                throw error.error(path: file.path, line: file.lineNumber(at: offset))
            }
            switch kind {
            case .transaction: transactionOffsets.append(offset)
            case .keyframe(let step): keyframes.append((step, offset))
            default: break
            }
            offset = line.next
            if let progress, offset - reported >= 8 << 20 {
                reported = offset
                progress(Double(offset) / Double(file.count))
            }
        }
        guard let first = keyframes.first else {
            throw .malformedLine(path: file.path, line: 2, reason: "no keyframe follows the header")
        }
        progress?(1)
        self.warnings = warnings
        self.transactionOffsets = transactionOffsets
        self.keyframes = keyframes
        self.locations = locations
        dataEnd = offset
        firstStep = first.step
        lastStep = check.lastStep ?? first.step
        lines = LineSource(file: file, scanner: scanner)
    }

    /// The warning for a last line cut short.
    static let tornLastLine = "the last line is incomplete (the recording stopped mid-write); it was ignored"

    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String]) {
        (transactionOffsets[seq - firstStep - 1], locations)
    }

    func keyframe(atOrBefore step: Int) throws(JournalError) -> (step: Int, offset: Int) {
        var low = 0
        var high = keyframes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if keyframes[middle].step <= step {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return keyframes[low]
    }

    func keyframeSteps() throws(JournalError) -> [Int] {
        keyframes.map(\.step)
    }

}
