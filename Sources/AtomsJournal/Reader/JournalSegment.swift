import Foundation

/// One journal file as the reader sees it: a whole unbounded journal, or one segment of a
/// bounded one. It finds lines by step; ``JournalReader`` decodes them.
protocol JournalSegment: AnyObject, Sendable {
    /// The file.
    var path: String { get }
    /// Its bytes.
    var data: MappedFile { get }
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

    /// The offset of transaction `seq`'s line (`firstStep < seq <= lastStep`), and the source
    /// locations that line may refer to.
    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String])
    /// The last keyframe at or before `step`: its step and offset.
    func keyframe(atOrBefore step: Int) throws(JournalError) -> (step: Int, offset: Int)
    /// The line number (from 1) of the line at `offset`, for messages.
    func lineNumber(at offset: Int) -> Int
    /// The steps of every keyframe, in order.
    func keyframeSteps() throws(JournalError) -> [Int]
}

extension JournalSegment {
    /// The file's size in bytes.
    var fileSize: Int { data.count }
}

/// A journal of format 3 or earlier, whose keyframes do not list locations: opened by reading
/// every line's start once (``JournalIndexer``), then read by the offsets found.
final class ScannedSegment: JournalSegment {
    let path: String
    let data: MappedFile
    let header: JournalHeader
    let warnings: [JournalWarning]
    let firstStep: Int
    let lastStep: Int
    var isEnded: Bool { false }
    private let transactionOffsets: [Int]
    private let transactionLines: [Int32]
    private let keyframes: [(step: Int, offset: Int, line: Int)]
    private let locations: [Int: String]

    init(path: String, data: MappedFile, progress: ((Double) -> Void)?) throws(JournalError) {
        var index = JournalIndexer(path: path, data: data)
        try index.run(progress: progress)
        self.path = path
        self.data = data
        header = index.header!
        warnings = index.warnings
        firstStep = index.firstStep!
        lastStep = index.lastStep
        transactionOffsets = index.transactionOffsets
        transactionLines = index.transactionLines
        keyframes = index.keyframes
        locations = index.locations
    }

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
        return (keyframes[low].step, keyframes[low].offset)
    }

    func lineNumber(at offset: Int) -> Int {
        if let keyframe = keyframes.first(where: { $0.offset == offset }) {
            return keyframe.line
        }
        // Transaction offsets are in order: find the line by binary search.
        var low = 0
        var high = transactionOffsets.count
        while low < high {
            let middle = (low + high) / 2
            if transactionOffsets[middle] < offset { low = middle + 1 } else { high = middle }
        }
        if low < transactionOffsets.count, transactionOffsets[low] == offset {
            return Int(transactionLines[low])
        }
        return data.withUnsafeBytes { JournalLines.lineNumber(in: $0, at: offset) }
    }

    func keyframeSteps() throws(JournalError) -> [Int] {
        keyframes.map(\.step)
    }
}
