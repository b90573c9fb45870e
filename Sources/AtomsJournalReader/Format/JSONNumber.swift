#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON number, kept as the text the journal holds, so that every integer of `Int64` and
/// `UInt64` range and every `Double` reads back exactly: through a `Double`, 2^53 + 1 would
/// become 2^53 and `UInt64.max` would round up.
///
/// Two numbers are equal when their values are: integers exactly, anything else as `Double`s
/// (so `1` equals `1.0`, and `0.30000000000000004` does not equal `0.3`).
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The number's JSON text.
    public let text: String

    /// A number from JSON text already checked against JSON's number grammar.
    init(validatedText text: String) {
        self.text = text
    }

    /// A number from JSON text; `nil` when it is not a JSON number.
    public init?(text: String) {
        var text = text
        let valid = text.withUTF8 { bytes in
            var scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
            return (try? scanner.numberText()) != nil && (try? scanner.expectEnd()) != nil
        }
        guard valid else { return nil }
        self.text = text
    }

    /// An integer.
    public init<T: BinaryInteger>(_ value: T) {
        text = String(value)
    }

    /// A floating-point number, written as the recorder writes it: the shortest text that reads
    /// back as the same `Double`, whole numbers below 10^15 without a fraction, `-0` for minus
    /// zero. Infinities and NaN have no JSON number (the recorder writes them as strings).
    public init(_ value: Double) {
        var bytes: [UInt8] = []
        bytes.appendJSONNumber(value)
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// The number an integer literal spells.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// The number a floating-point literal spells.
    public init(floatLiteral value: Double) {
        self.init(value)
    }

    /// The number as written in the journal.
    public var description: String { text }

    /// Whether the text has no fraction and no exponent.
    public var isInteger: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as a `Double` (rounded when it has more digits than a `Double` holds).
    public var double: Double {
        Double(text) ?? .nan
    }

    /// The value as an `Int64`, when it is an integer in its range.
    public var int64: Int64? {
        isInteger ? Int64(text) : nil
    }

    /// The value as a `UInt64`, when it is a non-negative integer in its range.
    public var uint64: UInt64? {
        isInteger ? UInt64(text) : nil
    }

    /// Whether two numbers are equal in value: integers of 64-bit range exactly, anything else as `Double`s.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Hashes the number by its `Double` value, as equal numbers have equal ones.
    public func hash(into hasher: inout Hasher) {
        // Equal numbers have equal `Double`s (the converse need not hold).
        hasher.combine(double)
    }

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`: integers of 64-bit range exactly,
    /// anything else as `Double`s.
    package static func compare(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if let a = lhs.int64, let b = rhs.int64 {
            return a < b ? -1 : (a > b ? 1 : 0)
        }
        if let a = lhs.uint64, let b = rhs.uint64 {
            return a < b ? -1 : (a > b ? 1 : 0)
        }
        // One is an Int64 (negative here), the other a UInt64 above Int64.max.
        if lhs.int64 != nil, rhs.uint64 != nil {
            return -1
        }
        if lhs.uint64 != nil, rhs.int64 != nil {
            return 1
        }
        let a = lhs.double
        let b = rhs.double
        return a < b ? -1 : (a > b ? 1 : 0)
    }

    /// The value as the closest Swift number: `Int64`, `UInt64` or `Double`.
    public var swiftValue: any Sendable {
        if let value = int64 { return value }
        if let value = uint64 { return value }
        return double
    }
}

extension JSONNumber: Codable {
    /// The `userInfo` key of the marker that asks ``encode(to:)`` for the number's exact text.
    package static let exactTextMarker = CodingUserInfoKey(rawValue: "AtomsJournalReader.JSONNumber.exactTextMarker")!

    /// Decodes a number as exactly as the decoder allows: an `Int64`, a `UInt64`, else a
    /// `Double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            // `-0` decodes as the integer 0: keep the sign the `Double` has.
            if value == 0, let double = try? container.decode(Double.self), double.sign == .minus {
                self.init(-0.0)
                return
            }
            self.init(value)
        } else if let value = try? container.decode(UInt64.self) {
            self.init(value)
        } else {
            self.init(try container.decode(Double.self))
        }
    }

    /// Encodes the number exactly: integers as `Int64` or `UInt64`, others as the `Double`
    /// they are (`JSONEncoder` writes a `Double`'s shortest round-trip text).
    ///
    /// With a marker in the encoder's `userInfo` (``exactTextMarker``), the number's text is
    /// encoded as a string between two copies of it, for a writer that puts the text back
    /// in its place: a `Double` loses digits, and `1e400` has none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let marker = encoder.userInfo[Self.exactTextMarker] as? String {
            try container.encode(marker + text + marker)
        } else if text.hasPrefix("-") && double == 0 {
            // Minus zero is a `Double`: as an integer it would lose its sign.
            try container.encode(-0.0)
        } else if let value = int64 {
            try container.encode(value)
        } else if let value = uint64 {
            try container.encode(value)
        } else {
            try container.encode(double)
        }
    }
}
