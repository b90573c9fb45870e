/// The byte-level writing the recorder's encoder and the format's line writers share.
extension Array where Element == UInt8 {
    /// Appends a floating-point number as the journal writes it: whole numbers as integers
    /// (as `JSONEncoder` prints them), non-finite ones as the strings `NaN`, `Infinity` and
    /// `-Infinity`.
    package mutating func appendJSONNumber<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) {
        if value.isNaN {
            appendJSONString("NaN")
        } else if value.isInfinite {
            appendJSONString(value < 0 ? "-Infinity" : "Infinity")
        } else if value == 0 && value.sign == .minus {
            // Minus zero reads back as itself, not as 0.
            append(contentsOf: "-0".utf8)
        } else if value == value.rounded(), abs(value) < 1e15 {
            appendDecimal(Int64(value))
        } else {
            append(contentsOf: value.description.utf8)
        }
    }

    /// Appends an integer's decimal digits, with no intermediate string.
    package mutating func appendDecimal<T: BinaryInteger>(_ value: T) {
        guard let small = Int(exactly: value) else {
            append(contentsOf: String(value).utf8)
            return
        }
        appendDecimal(small)
    }

    /// Appends an `Int`'s decimal digits: written backwards into a small stack buffer, then
    /// appended at once (one capacity check, not one per digit).
    package mutating func appendDecimal(_ value: Int) {
        if value >= 0 && value < 10 {
            append(0x30 + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var rest = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = 0x30 + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `value` as a JSON string literal.
    package mutating func appendJSONString(_ value: String) {
        let appended: Void? = value.utf8.withContiguousStorageIfAvailable { buffer in
            appendJSONString(utf8: buffer)
        }
        if appended == nil {
            var copy = value
            copy.withUTF8 { appendJSONString(utf8: $0) }
        }
    }

    /// Appends UTF-8 bytes as a JSON string literal: quotes, backslashes and control bytes
    /// escaped, every other byte as it is. (A buffer, not a generic collection, so callers in
    /// other modules reach the specialized loop.)
    package mutating func appendJSONString(utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            append(contentsOf: utf8)
            append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case 0x22: append(contentsOf: [0x5C, 0x22])
            case 0x5C: append(contentsOf: [0x5C, 0x5C])
            case 0x0A: append(contentsOf: [0x5C, 0x6E])
            case 0x0D: append(contentsOf: [0x5C, 0x72])
            case 0x09: append(contentsOf: [0x5C, 0x74])
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
