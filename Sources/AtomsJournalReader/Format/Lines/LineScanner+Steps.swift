extension LineScanner {
    /// The steps a run of format 4 journal lines spans, read by the scanner from its ends: the
    /// first step line's step, the last one's, and whether that one is the end line. `nil`
    /// when the lines hold no step line, or one the scanner rejects.
    ///
    /// A flight recorder's dump reads its segments' lines this way, to name the steps it
    /// writes and to end the journal at its last step.
    ///
    /// - Parameter lines: Whole lines, each ending in a newline (`0x0A`).
    /// - Complexity: Reads lines from each end up to the first step line found.
    package static func stepSpan(of lines: [UInt8]) -> (first: Int, last: Int, ended: Bool)? {
        let scanner = LineScanner(version: JournalFormat.majorVersion)
        return lines.withUnsafeBytes { raw -> (first: Int, last: Int, ended: Bool)? in
            func kind(_ range: Range<Int>) -> LineKind? {
                try? scanner.kind(of: range, in: raw)
            }
            var first: Int?
            var start = 0
            while first == nil, start < raw.count, let newline = raw[start...].firstIndex(of: 0x0A) {
                first = kind(start..<newline)?.step
                start = newline + 1
            }
            var end = raw.count - 1
            while end > 0, let first {
                let lineStart = raw[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                switch kind(lineStart..<end) {
                case .end(let seq)?: return (first, seq, true)
                case let found? where found.step != nil: return (first, found.step!, false)
                default: end = lineStart - 1
                }
            }
            return nil
        }
    }
}
