extension JournalReader {
    /// Whether the journal's recorder timed its transactions (format 4.1, and 4.2 on unless
    /// its header says `"timed":false`): a journal without timing lines is not the same as a
    /// journal whose transactions cost nothing.
    package var recordsTimings: Bool {
        header.isTimed
    }

    /// The format as messages about timing name it: `4.0`, or `4.2, timing off` for a
    /// journal whose header says it has no timing lines.
    package var timingFormatText: String {
        "\(header.version).\(header.minor)" + (header.timed == false ? ", timing off" : "")
    }

    /// The timing lines of transactions `steps`, by transaction, read in one pass over every
    /// line of the journal's segments (a timing line follows its transaction, not always
    /// right after it: the transactions its subscribers started come first).
    ///
    /// - Throws: ``JournalError`` naming a timing line that is malformed, or a file that
    ///   changed while it was read.
    /// - Complexity: Reads the whole journal once; parses only its timing lines.
    package func timings(of steps: ClosedRange<Int>) throws(JournalError) -> [Int: TimingLine] {
        var timings: [Int: TimingLine] = [:]
        for segment in allSegments where segment.lastStep >= steps.lowerBound {
            try forEachTimingLine(in: segment, from: 0) { timing in
                if steps.contains(timing.seq) {
                    timings[timing.seq] = timing
                }
                return true
            }
        }
        return timings
    }

    /// The timing line of transaction `seq`, or `nil` when it has none (a journal recorded
    /// without timing, or one whose recording stopped before the line was written).
    ///
    /// - Throws: ``JournalError`` for a step out of range, a malformed line, or a file that
    ///   changed while it was read.
    /// - Complexity: Finds the transaction's line as ``transaction(_:decodingValuesOf:)`` does,
    ///   then reads forward to its timing line: usually the next line, after the lines of the
    ///   transactions its subscribers started otherwise.
    package func timing(of seq: Int) throws(JournalError) -> TimingLine? {
        guard recordsTimings, seq > firstStep, seq <= lastStep else { return nil }
        let segments = allSegments.filter { $0.lastStep >= seq }
        guard let first = segments.first(where: { $0.firstStep < seq }) else { return nil }
        // The line may sit in a later segment of a bounded journal, when one began between.
        for segment in segments where segment.firstStep >= first.firstStep {
            var found: TimingLine?
            let offset = segment === first ? try segment.transactionLine(seq).offset : 0
            try forEachTimingLine(in: segment, from: offset) { timing in
                if timing.seq == seq { found = timing }
                return found == nil
            }
            if let found { return found }
        }
        return nil
    }

    /// Calls `body` with each timing line of `segment` from byte `offset` on, until it
    /// returns `false`; other lines are only told apart by their start, not parsed.
    private func forEachTimingLine(in segment: any JournalSegment, from offset: Int, _ body: (TimingLine) -> Bool) throws(JournalError) {
        var reader = LineReader(file: segment.file)
        let scanner = segment.lines.scanner
        var offset = offset
        while offset < segment.dataEnd {
            let line = try reader.line(at: offset)
            if reader.withBuffer({ raw in TimingLine.isTimingLine(raw, line.range) }) {
                let timing = try readLine(&reader, at: offset, scanner: scanner) { _, raw, range in
                    try TimingLine(bytes: raw, range: range)
                }
                guard body(timing) else { return }
            }
            offset = line.next
        }
    }
}
