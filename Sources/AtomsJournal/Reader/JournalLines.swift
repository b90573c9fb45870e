import Foundation

/// Finding and recognizing lines in a journal's bytes without decoding them.
enum JournalLines {
    /// What a line of a compact journal (format 2 and later) holds, read from its start.
    enum Kind: Equatable {
        case transaction(seq: Int)
        case keyframe(seq: Int)
        case location
        /// The end line (format 4), after the last transaction `seq`.
        case end(seq: Int)
        /// An object line of a type this reader does not know (format 4 readers skip them).
        case unknown
    }

    private static let keyframePrefix = Array(#"{"type":"keyframe","seq":"#.utf8)
    private static let locationPrefix = Array(#"{"type":"loc","#.utf8)
    private static let endPrefix = Array(#"{"type":"end","seq":"#.utf8)
    private static let typePrefix = Array(#"{"type":""#.utf8)

    /// The offset of the next newline at or after `start`, or the end of the buffer.
    static func nextNewline(in raw: UnsafeRawBufferPointer, from start: Int, within limit: Int = .max) -> Int {
        JournalIndexer.nextNewline(in: raw, from: start, within: limit)
    }

    /// The start of the line that ends just before `offset` (a line start), or `nil` at the
    /// start of the buffer.
    static func previousLineStart(in raw: UnsafeRawBufferPointer, before offset: Int) -> Int? {
        guard offset > 0 else { return nil }
        // `offset - 1` is the previous line's newline; its start follows the newline before.
        var position = offset - 1
        while position > 0 {
            if raw[position - 1] == 0x0A { return position }
            position -= 1
        }
        return 0
    }

    /// What the line `range` holds, from the fixed prefix a recorder writes; `nil` when the
    /// line was written differently (it is then decoded, to say what is wrong).
    static func sniff(_ raw: UnsafeRawBufferPointer, line range: Range<Int>) -> Kind? {
        guard !range.isEmpty else { return nil }
        let bytes = raw.bindMemory(to: UInt8.self)
        func hasPrefix(_ prefix: [UInt8]) -> Bool {
            guard range.count > prefix.count else { return false }
            for (index, byte) in prefix.enumerated() where bytes[range.lowerBound + index] != byte {
                return false
            }
            return true
        }
        func number(from start: Int) -> Int? {
            step(in: raw, from: start, lineEnd: range.upperBound)
        }
        switch bytes[range.lowerBound] {
        case UInt8(ascii: "["):
            // A transaction must end its array; anything else is decoded to say what is wrong.
            guard bytes[range.upperBound - 1] == UInt8(ascii: "]") else { return nil }
            return number(from: range.lowerBound + 1).map { .transaction(seq: $0) }
        case UInt8(ascii: "{") where bytes[range.upperBound - 1] == UInt8(ascii: "}"):
            if hasPrefix(keyframePrefix) {
                return number(from: range.lowerBound + keyframePrefix.count).map { .keyframe(seq: $0) }
            }
            if hasPrefix(locationPrefix) {
                return .location
            }
            if hasPrefix(endPrefix) {
                return number(from: range.lowerBound + endPrefix.count).map { .end(seq: $0) }
            }
            return nil
        default:
            return nil
        }
    }

    /// The step written at `start` (up to 18 digits followed by `,` or `}`), or `nil`.
    static func step(in raw: UnsafeRawBufferPointer, from start: Int, lineEnd: Int) -> Int? {
        var value = 0
        var position = start
        while position < lineEnd, position - start < 18, raw[position] >= 0x30, raw[position] <= 0x39 {
            value = value * 10 + Int(raw[position] - 0x30)
            position += 1
        }
        guard position > start, position < lineEnd, raw[position] == 0x2C || raw[position] == 0x7D else {
            return nil
        }
        return value
    }

    /// The line number (from 1) of the line starting at `offset`: counts the newlines before
    /// it, so it is only used for messages.
    static func lineNumber(in raw: UnsafeRawBufferPointer, at offset: Int) -> Int {
        guard let base = raw.baseAddress else { return 1 }
        var count = 1
        var position = 0
        let end = min(offset, raw.count)
        while position < end, let found = memchr(base + position, 0x0A, end - position) {
            count += 1
            position = UnsafeRawPointer(found) - base + 1
        }
        return count
    }

    /// The `type` (and `seq`) of an object line, decoded when its prefix was not the one a
    /// recorder writes.
    struct TypedObject: Decodable {
        var type: String
        var seq: Int?

        /// `seq`, which must be there.
        func requiredSeq() throws -> Int {
            guard let seq else {
                throw DecodingError.keyNotFound(CodingKeys.seq, DecodingError.Context(codingPath: [], debugDescription: "no seq"))
            }
            return seq
        }

        /// `seq`, which must be there and be a valid step.
        func requiredStep() throws -> Int {
            let seq = try requiredSeq()
            guard JournalFormat.stepRange.contains(seq) else {
                throw JSONScanner.SyntaxError(offset: 0, message: "step \(seq) is out of range")
            }
            return seq
        }
    }
}
