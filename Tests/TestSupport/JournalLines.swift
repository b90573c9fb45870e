/// A journal's lines (docs/JOURNAL_FORMAT.md) as tests compare them: without what varies from
/// run to run. A transaction's time, the header's `created` date and the numbers of timing and
/// end lines hold digits no test can expect or rule out (a time of `0.799` holds `99`), so a
/// test that looks for text in a line looks in the fields that are the same in every run.
public enum JournalLines {
    /// The top-level elements of a line that is a JSON array, each as the text it was written
    /// as: `[3,0.799,"set",1,1,[[1,"v",2]]]` gives `3`, `0.799`, `"set"`, `1`, `1` and
    /// `[[1,"v",2]]`. `nil` for a line that is not an array (a header, keyframe, location,
    /// timing or end line). A trailing newline is ignored.
    public static func elements(of line: some StringProtocol) -> [String]? {
        var bytes = Array(line.utf8)
        while bytes.last == UInt8(ascii: "\n") || bytes.last == UInt8(ascii: "\r") {
            bytes.removeLast()
        }
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else {
            return nil
        }
        let end = bytes.count - 1
        guard end > 1 else { return [] }
        var elements: [String] = []
        var depth = 0
        var string = StringState()
        var start = 1
        for index in 1..<end {
            let byte = bytes[index]
            if string.consume(byte) {
                continue
            }
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                elements.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 1
            default:
                break
            }
        }
        elements.append(String(decoding: bytes[start..<end], as: UTF8.self))
        return elements
    }

    /// A transaction line without its time (position 1, milliseconds since recording started):
    /// `[3,0.799,"set",1,1,[…]]` gives `[3,"set",1,1,[…]]`, every other field as written. Any
    /// other line is returned as it is.
    public static func withoutTime(_ line: some StringProtocol) -> String {
        guard var elements = elements(of: line), elements.count >= 2 else {
            return String(line)
        }
        elements.remove(at: 1)
        return "[" + elements.joined(separator: ",") + "]"
    }

    /// A journal's text (or some of its lines, one a line) without what varies from run to run:
    /// each transaction line without its time (``withoutTime(_:)``), the header's `created`
    /// date emptied, every number of a timing line (`{"type":"t",…}` of format 4.2, or
    /// `"timing"` of 4.1) and of the end line written as `0` (their strings, the locations,
    /// stay), and a packed timing line (4.3, a string of digits) written as `"T"`.
    /// Keyframes, declarations, location lines and every value stay as written.
    public static func withoutTimes(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("[") {
                return withoutTime(line)
            }
            if line.hasPrefix("\"") {
                return #""T""#
            }
            if line.hasPrefix(#"{"type":"t","#) || line == #"{"type":"t"}"# || line.hasPrefix(#"{"type":"timing","#)
                || line.hasPrefix(#"{"type":"end","#)
            {
                return numbersAsZero(line)
            }
            if line.hasPrefix(#"{"format":"#) {
                return withoutCreated(line)
            }
            return String(line)
        }.joined(separator: "\n")
    }

    /// The header line with its `created` member's string emptied.
    private static func withoutCreated(_ line: Substring) -> String {
        let key = #""created":""#
        guard let start = line.firstRange(of: key)?.upperBound,
            let end = line[start...].firstIndex(of: "\"")
        else {
            return String(line)
        }
        return String(line[..<start]) + String(line[end...])
    }

    /// A line of JSON with each number outside its strings written as `0`.
    private static func numbersAsZero(_ line: Substring) -> String {
        var result: [UInt8] = []
        var string = StringState()
        var inNumber = false
        var inLiteral = false
        for byte in line.utf8 {
            if string.consume(byte) {
                result.append(byte)
                continue
            }
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if inNumber {
                // A number goes on with digits, a point, an exponent and its sign.
                if isDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                {
                    continue
                }
                inNumber = false
            }
            if inLiteral {
                // `true`, `false` and `null` are copied whole.
                if isLetter {
                    result.append(byte)
                    continue
                }
                inLiteral = false
            }
            if isDigit || byte == UInt8(ascii: "-") {
                inNumber = true
                result.append(UInt8(ascii: "0"))
            } else if isLetter {
                inLiteral = true
                result.append(byte)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether a scan of a JSON line is inside a string: every byte from an opening quote to
    /// its closing one (escapes included) belongs to the string.
    private struct StringState {
        private var inString = false
        private var escaped = false

        /// Takes the next byte; `true` when it belongs to a string (its quotes included).
        mutating func consume(_ byte: UInt8) -> Bool {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                return true
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                return true
            }
            return false
        }
    }
}
