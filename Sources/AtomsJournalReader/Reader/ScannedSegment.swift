#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    var recorderWaits: Int { 0 }
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
        var reported = 0
        let count = file.count
        let end = try readLines(&reader, from: headerEnd, to: count, scanner: scanner) { scanner, raw, line in
            let kind: LineKind
            do {
                // The last line is checked whole: a crash may have cut it short.
                kind = try scanner.kind(of: line.range, in: raw, verify: !line.isTerminated || line.next >= count)
                if kind == .location {
                    let location = try scanner.location(in: raw, line.range)
                    locations[location.id] = location.at
                }
            } catch {
                if !line.isTerminated {
                    warnings.append(JournalWarning(path: file.path, line: file.lineNumber(at: line.offset), message: Self.tornLastLine))
                    return .stopBefore
                }
                throw error
            }
            do throws(SequenceCheck.Violation) {
                try check.take(kind)
            } catch {
                throw error.error(path: file.path, line: file.lineNumber(at: line.offset))
            }
            switch kind {
            case .transaction: transactionOffsets.append(line.offset)
            case .keyframe(let step): keyframes.append((step, line.offset))
            default: break
            }
            if let progress, line.next - reported >= 8 << 20 {
                reported = line.next
                progress(Double(line.next) / Double(count))
            }
            return .next
        }
        guard let first = keyframes.first else {
            throw .malformedLine(path: file.path, line: 2, reason: "no keyframe follows the header")
        }
        progress?(1)
        self.warnings = warnings
        self.transactionOffsets = transactionOffsets
        self.keyframes = keyframes
        self.locations = locations
        dataEnd = end
        firstStep = first.step
        lastStep = check.lastStep ?? first.step
        lines = LineSource(file: file, scanner: scanner)
    }

    /// The warning for a last line cut short.
    static let tornLastLine = "the last line is incomplete (the recording stopped mid-write); it was ignored"

    func transactionLine(_ seq: Int) throws(JournalError) -> (offset: Int, locations: [Int: String]) {
        (transactionOffsets[seq - firstStep - 1], locations)
    }

    var locationsAnywhere: Set<Int>? { Set(locations.keys) }

    /// Opening read every line, and no transaction follows the last one.
    func checkToEnd() {}

    func transaction(_ seq: Int, decoding: (Int) -> Bool, applying: (TransactionRecord) throws(JournalState.StateError) -> Void) throws(JournalError) -> (record: TransactionRecord, lineLength: Int) {
        let locations = self.locations
        let offset = transactionOffsets[seq - firstStep - 1]
        let result: (record: TransactionRecord, lineLength: Int) = try lines.read(lineAt: offset) { scanner, raw, range in
            (try scanner.transaction(in: raw, range, locations: locations, decoding: decoding), range.count)
        }
        do throws(JournalState.StateError) {
            try applying(result.record)
        } catch {
            throw .malformedLine(path: path, line: lineNumber(at: offset), reason: error.message)
        }
        return result
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
