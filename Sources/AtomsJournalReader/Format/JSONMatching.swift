extension JSONValue {
    /// Whether `bytes`, parsed, equal `expected` (`false` when they do not parse), decided
    /// while scanning them: nothing is built, and the scan stops at the first difference.
    /// A replay compares the delta its differ wrote with the recorded one this way.
    ///
    /// The bytes are JSON this package wrote, with no key repeated in an object (a repeated
    /// key would count twice against `expected`'s members).
    package static func parsed(_ bytes: [UInt8], equals expected: JSONValue) -> Bool {
        bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            guard (try? scanner.matches(expected)) == true else { return false }
            return (try? scanner.expectEnd()) != nil
        }
    }
}

extension JSONScanner {
    /// Reads the next value as ``value()`` does (the whole of it, whatever it holds),
    /// comparing it with `expected` as it goes; after the first difference the rest is only
    /// skipped.
    mutating func matches(_ expected: JSONValue) throws(SyntaxError) -> Bool {
        switch peek() {
        case UInt8(ascii: "{")?:
            guard case .object(let members) = expected else { return try skipped() }
            var same = true
            var count = 0
            try forEachMember { key, scanner throws(SyntaxError) in
                // After a difference the members are skipped, checking only their structure.
                guard same, let member = members[key] else {
                    same = false
                    try scanner.skipValue()
                    return
                }
                same = try scanner.matches(member)
                count += 1
            }
            return same && count == members.count
        case UInt8(ascii: "[")?:
            guard case .array(let elements) = expected else { return try skipped() }
            var same = true
            var index = 0
            try forEachElement { scanner throws(SyntaxError) in
                guard same, index < elements.count else {
                    same = false
                    try scanner.skipValue()
                    return
                }
                same = try scanner.matches(elements[index])
                index += 1
            }
            return same && index == elements.count
        case UInt8(ascii: "\"")?:
            guard case .string(let text) = expected else { return try skipped() }
            return try string() == text
        case UInt8(ascii: "t")?:
            try literal("true")
            return expected == .bool(true)
        case UInt8(ascii: "f")?:
            try literal("false")
            return expected == .bool(false)
        case UInt8(ascii: "n")?:
            try literal("null")
            return expected == .null
        case nil:
            throw error("unexpected end of text")
        default:
            guard case .number(let number) = expected else { return try skipped() }
            return JSONNumber(validatedText: try numberText()) == number
        }
    }

    /// Skips the next value: it differs.
    private mutating func skipped() throws(SyntaxError) -> Bool {
        try skipValue()
        return false
    }
}
