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

/// The envelope of a transaction line, read at the speed of a byte scan: the step, the time,
/// the cause and the atoms written, for lines in the shape the recorder writes most
/// (`[seq,t,"cause",origin,at,[[id,"v",scalar],[id,"="],…]]`).
///
/// It checks every number and value by ``JSONScanner``'s rules (`TransactionEnvelopeTests`
/// holds the two to the same verdict on mutated lines), and gives up
/// (`nil`) on anything else: spaces, escapes, keyed entries, deltas, graph changes. Those
/// lines are read by ``TransactionLine``. So a line this accepts is one ``TransactionLine``
/// accepts too, with the same step, cause and atoms: `stats` and `log` judge a journal alike.
struct TransactionEnvelope {
    var seq: Int
    /// The time's bytes.
    var time: Range<Int>
    /// The cause's bytes (it has no escapes).
    var cause: Range<Int>
    /// The atom that started it (0 for none).
    var origin: Int
    /// The number of its write site's location (0 for none).
    var at: Int

    /// The most value entries a line may have here (more go to ``TransactionLine``).
    static let idCapacity = 1024

    /// Reads the line `line` of `raw`; the atoms of its value entries go to `ids` (`count`
    /// of them, at most ``idCapacity``), and, when `values` is given, the bytes of each
    /// entry's value to it (an empty range for `[id,"="]`). `nil` when the line is not in the
    /// common shape.
    @inline(__always)
    static func read(
        _ raw: UnsafeRawBufferPointer, _ line: Range<Int>, version: Int, ids: UnsafeMutablePointer<Int>, count: inout Int,
        values: UnsafeMutablePointer<Range<Int>>? = nil
    ) -> TransactionEnvelope? {
        count = 0
        guard version >= 2, line.count > 2, let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let base = start
        var position = line.lowerBound
        let end = line.upperBound
        @inline(__always) func next(_ byte: UInt8) -> Bool {
            guard position < end, base[position] == byte else { return false }
            position += 1
            return true
        }
        @inline(__always) func digits() -> Int {
            let first = position
            while position < end, base[position] &- 0x30 < 10 { position += 1 }
            return position - first
        }
        // An integer as `JSONScanner.integer()` reads it: digits, not followed by a fraction
        // or an exponent; at most 18 digits, which cannot overflow.
        @inline(__always) func integer() -> Int? {
            let first = position
            var value = 0
            while position < end, case let digit = base[position] &- 0x30, digit < 10 {
                value = value &* 10 &+ Int(digit)
                position += 1
            }
            guard position > first, position - first <= 18 else { return nil }
            if position < end, base[position] == UInt8(ascii: ".") || base[position] | 0x20 == UInt8(ascii: "e") { return nil }
            return value
        }
        // A number as `JSONScanner.numberRange()` reads it, without an exponent (left to the
        // general reader): `-`, digits without a leading zero, a fraction.
        @inline(__always) func plainNumber() -> Range<Int>? {
            let first = position
            _ = next(UInt8(ascii: "-"))
            let integerStart = position
            let count = digits()
            guard count > 0, count == 1 || base[integerStart] != UInt8(ascii: "0") else { return nil }
            if next(UInt8(ascii: ".")) {
                guard digits() > 0 else { return nil }
            }
            if position < end, base[position] | 0x20 == UInt8(ascii: "e") { return nil }
            return first..<position
        }
        @inline(__always) func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard end - position >= length, memcmp(base + position, word.utf8Start, length) == 0 else { return false }
            position += length
            return true
        }
        guard next(UInt8(ascii: "[")), let seq = integer(), next(UInt8(ascii: ",")) else { return nil }
        guard let time = plainNumber(), time.count < 24, next(UInt8(ascii: ",")), next(UInt8(ascii: "\"")) else { return nil }
        let causeStart = position
        while position < end, base[position] != UInt8(ascii: "\""), base[position] >= 0x20, base[position] != UInt8(ascii: "\\"), base[position] < 0x80 {
            position += 1
        }
        let cause = causeStart..<position
        guard next(UInt8(ascii: "\"")), next(UInt8(ascii: ",")), let origin = integer(), next(UInt8(ascii: ",")),
            let at = integer(), next(UInt8(ascii: ",")), next(UInt8(ascii: "["))
        else { return nil }
        if !next(UInt8(ascii: "]")) {
            while true {
                guard next(UInt8(ascii: "[")), let id = integer(), count < idCapacity else { return nil }
                ids[count] = id
                count += 1
                guard next(UInt8(ascii: ",")), next(UInt8(ascii: "\"")), position + 2 < end else { return nil }
                let kind = base[position]
                guard base[position + 1] == UInt8(ascii: "\"") else { return nil }
                position += 2
                if kind == UInt8(ascii: "="), version >= 3 {
                    values?[count - 1] = position..<position
                    guard next(UInt8(ascii: "]")) else { return nil }
                } else if kind == UInt8(ascii: "v") {
                    // A number or a literal: containers and strings are left to the general reader.
                    guard next(UInt8(ascii: ",")) else { return nil }
                    guard position < end else { return nil }
                    let first = base[position]
                    let valueStart = position
                    let isNumber = first &- 0x30 < 10 || first == UInt8(ascii: "-")
                    guard isNumber ? plainNumber() != nil : (literal("true") || literal("false") || literal("null")) else {
                        return nil
                    }
                    values?[count - 1] = valueStart..<position
                    guard next(UInt8(ascii: "]")) else { return nil }
                } else {
                    return nil
                }
                if next(UInt8(ascii: "]")) { break }
                guard next(UInt8(ascii: ",")) else { return nil }
            }
        }
        // The line ends with the transaction's own bracket; graph changes go to the general reader.
        guard next(UInt8(ascii: "]")), position == end else { return nil }
        return TransactionEnvelope(seq: seq, time: time, cause: cause, origin: origin, at: at)
    }
}
