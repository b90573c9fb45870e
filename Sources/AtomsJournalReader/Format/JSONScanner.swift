#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads JSON text byte by byte: parses values into ``JSONValue``, or skips them without
/// building anything, so that a reader pays only for the parts of a line it uses.
///
/// `JSONDecoder` builds a tree of the whole line before a single field is read; a journal line
/// can hold a large value that a command such as `log` never prints. The scanner instead walks
/// the bytes in place and hands out byte ranges, which callers parse only when needed.
///
/// Nesting deeper than ``maximumDepth`` is an error rather than a deep recursion.
package struct JSONScanner {
    /// A syntax error at a byte offset.
    package struct SyntaxError: Error, CustomStringConvertible {
        let offset: Int
        let message: String

        package var description: String {
            "not valid JSON at byte \(offset + 1): \(message)"
        }
    }

    /// Containers nested deeper than this are rejected.
    static let maximumDepth = 512

    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    package var position: Int
    /// The offset just past the text to read.
    let end: Int
    private var depth = 0

    /// Scans `bytes[range]` (all of `bytes` when `range` is `nil`).
    package init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
        self.bytes = bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    // MARK: Bytes

    func error(_ message: String) -> SyntaxError {
        SyntaxError(offset: position, message: message)
    }

    /// The next byte that is not whitespace, without consuming it; `nil` at the end.
    package mutating func peek() -> UInt8? {
        while position < end {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else {
                return byte
            }
            position += 1
        }
        return nil
    }

    /// Consumes `byte` (after whitespace) or throws.
    mutating func expect(_ byte: UInt8) throws(SyntaxError) {
        guard peek() == byte else {
            throw error("expected '\(Character(UnicodeScalar(byte)))'")
        }
        position += 1
    }

    /// Consumes `byte` when it comes next; returns whether it did.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    /// Throws unless only whitespace is left.
    mutating func expectEnd() throws(SyntaxError) {
        guard peek() == nil else {
            throw error("unexpected text after the value")
        }
    }

    // MARK: Containers

    /// Iterates the elements of an array: `body` reads exactly one element each time.
    package mutating func forEachElement(_ body: (inout JSONScanner) throws(SyntaxError) -> Void) throws(SyntaxError) {
        try expect(UInt8(ascii: "["))
        try enter()
        defer { depth -= 1 }
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            try body(&self)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// Iterates the members of an object: `body` gets the key and reads exactly one value.
    package mutating func forEachMember(_ body: (String, inout JSONScanner) throws(SyntaxError) -> Void) throws(SyntaxError) {
        try expect(UInt8(ascii: "{"))
        try enter()
        defer { depth -= 1 }
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try body(key, &self)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("nested more than \(Self.maximumDepth) levels deep")
        }
    }

    // MARK: Values

    /// Parses the next value.
    package mutating func value() throws(SyntaxError) -> JSONValue {
        switch peek() {
        case UInt8(ascii: "{")?:
            var members: [String: JSONValue] = [:]
            try forEachMember { key, scanner throws(SyntaxError) in
                members[key] = try scanner.value()
            }
            return .object(members)
        case UInt8(ascii: "[")?:
            var elements: [JSONValue] = []
            try forEachElement { scanner throws(SyntaxError) in
                elements.append(try scanner.value())
            }
            return .array(elements)
        case UInt8(ascii: "\"")?:
            return .string(try string())
        case UInt8(ascii: "t")?:
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f")?:
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n")?:
            try literal("null")
            return .null
        case nil:
            throw error("unexpected end of text")
        default:
            return .number(JSONNumber(validatedText: try numberText()))
        }
    }

    /// A number of at most 15 digits with no exponent (a transaction's time, `17.104`), as
    /// `Double(text)` reads it, without making the text: its digits as an integer are exact in a
    /// `Double`, and so is a power of ten up to 10^22, so one division rounds correctly.
    /// `nil` for any other number.
    private static func exactDouble(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= 0x30, byte <= 0x39 {
                mantissa = mantissa * 10 + Int(byte - 0x30)
                digits += 1
                if inFraction { fractionDigits += 1 }
                guard digits <= 15 else { return nil }
            } else {
                return nil
            }
            index += 1
        }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// Reads a number's text, checking its grammar.
    mutating func numberText() throws(SyntaxError) -> String {
        let range = try numberRange()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Skips the next value, checking only its structure; returns the range it took.
    @discardableResult
    package mutating func skipValue() throws(SyntaxError) -> Range<Int> {
        guard let first = peek() else {
            throw error("unexpected end of text")
        }
        let start = position
        switch first {
        case UInt8(ascii: "{"):
            // As `forEachMember`, with the keys checked but not made into strings.
            try expect(UInt8(ascii: "{"))
            try enter()
            defer { depth -= 1 }
            if !consume(UInt8(ascii: "}")) {
                repeat {
                    guard peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
                    try skipString()
                    try expect(UInt8(ascii: ":"))
                    _ = try skipValue()
                } while consume(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
            }
        case UInt8(ascii: "["):
            try forEachElement { scanner throws(SyntaxError) in try scanner.skipValue() }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try numberRange()
        }
        return start..<position
    }

    mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard end - position >= count,
            memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0
        else {
            throw error("unknown literal")
        }
        position += count
    }

    /// Parses an integer (no fraction or exponent) that fits in `Int`.
    mutating func integer() throws(SyntaxError) -> Int {
        _ = peek()
        let start = position
        var negative = false
        if position < end, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value = 0
        let digitsStart = position
        while position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let digit = Int(bytes[position] - 0x30)
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else {
                position = start
                throw error("integer out of range")
            }
            value = sum
            position += 1
        }
        guard position > digitsStart else {
            position = start
            throw error("expected an integer")
        }
        if position < end, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") {
            position = start
            throw error("expected an integer")
        }
        return value
    }

    /// Parses a number as a `Double`.
    mutating func double() throws(SyntaxError) -> Double {
        let range = try numberRange()
        if let exact = Self.exactDouble(bytes, range) { return exact }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text) else {
            position = range.lowerBound
            throw error("number out of range")
        }
        return value
    }

    /// Reads a number's text, checking its grammar.
    mutating func numberRange() throws(SyntaxError) -> Range<Int> {
        _ = peek()
        let start = position
        func digits() -> Int {
            let first = position
            while position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - first
        }
        if position < end, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[position - integerDigits] != 0x30 else {
            position = start
            throw error("expected a value")
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if position < end, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        return start..<position
    }

    /// Parses a string literal.
    mutating func string() throws(SyntaxError) -> String {
        guard peek() == UInt8(ascii: "\"") else {
            throw error("expected a string")
        }
        let start = position + 1
        // Most strings hold no escape: decode them in one step.
        var scan = start
        var isASCII = true
        while scan < end {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<scan])
                // ASCII is valid UTF-8 as it is; anything else is checked.
                let text = isASCII ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
                guard let text else {
                    throw error("a string is not valid UTF-8")
                }
                position = scan + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            isASCII = isASCII && byte < 0x80
            scan += 1
        }
        position = start
        var utf8: [UInt8] = []
        while true {
            guard position < end else { throw error("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try unescape(into: &utf8)
            case ..<0x20:
                position -= 1
                throw error("a control character in a string")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func unescape(into utf8: inout [UInt8]) throws(SyntaxError) {
        let scalar = try escapedScalar()
        if scalar < 0x80 {
            utf8.append(UInt8(scalar))
        } else {
            utf8.append(contentsOf: String(Character(UnicodeScalar(scalar)!)).utf8)
        }
    }

    /// The scalar an escape stands for, read after its backslash: the one definition of a
    /// valid escape, for strings read and strings skipped alike.
    private mutating func escapedScalar() throws(SyntaxError) -> UInt32 {
        guard position < end else { throw error("unterminated string") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt32(byte)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"):
            let scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate: a low one must follow.
                guard end - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("an unpaired surrogate in a string")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired surrogate in a string") }
                return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("an unpaired surrogate in a string")
            }
            return scalar
        default:
            throw error("an unknown escape in a string")
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard end - position >= 4 else { throw error("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Skips a string, checking what ``string()`` checks (escapes, control characters, UTF-8),
    /// so that a line a reader skips parts of is judged as one that reads them all.
    private mutating func skipString() throws(SyntaxError) {
        position += 1
        let start = position
        var isASCII = true
        while position < end {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") {
                // Escapes are ASCII and never split a character: the raw bytes are valid UTF-8
                // exactly when the string they spell is.
                if !isASCII, String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<position - 1]), as: UTF8.self) == nil {
                    position = start - 1
                    throw error("a string is not valid UTF-8")
                }
                return
            }
            if byte == UInt8(ascii: "\\") {
                _ = try escapedScalar()
            } else if byte < 0x20 {
                position -= 1
                throw error("a control character in a string")
            } else {
                isASCII = isASCII && byte < 0x80
            }
        }
        throw error("unterminated string")
    }
}

extension JSONValue {
    /// Parses JSON text (one value, with optional whitespace around it).
    ///
    /// - Throws: A syntax error naming the byte offset.
    package static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
        let contiguous = Array(bytes)
        return try contiguous.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            let value = try scanner.value()
            try scanner.expectEnd()
            return value
        }
    }
}
