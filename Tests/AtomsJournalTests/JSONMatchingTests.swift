import Testing
@testable import AtomsJournalReader

/// `JSONValue.parsed(_:equals:)` decides while scanning what parsing and `==` decide: held to
/// the same verdict on pairs that differ in every way a delta can.
struct JSONMatchingTests {
    static let texts = [
        #"["a",[[17,{"isCompleted":true}]]]"#,
        #"["a",[[17,{"isCompleted":false}]]]"#,
        #"["a",[[18,{"isCompleted":true}]]]"#,
        #"["a",[[17,{"isCompleted":true}],[3,1,[]]]]"#,
        #"["a",[[17,{"isCompleted":true,"text":"x"}]]]"#,
        #"{"total":3,"totalCompleted":1,"percentCompleted":0.3333333333333333}"#,
        #"{"totalCompleted":1,"total":3,"percentCompleted":0.3333333333333333}"#,
        #"{"total":3,"totalCompleted":1}"#,
        #"{"total":3.0,"totalCompleted":1,"percentCompleted":0.3333333333333333}"#,
        #"{"total":"3","totalCompleted":1,"percentCompleted":0.3333333333333333}"#,
        #"{"t":{"a":[1,2,{"b":null}]},"u":"caf\u00e9"}"#,
        #"{"t":{"a":[1,2,{"b":null}]},"u":"café"}"#,
        #"{"t":{"a":[1,2,{"b":false}]},"u":"café"}"#,
        #"{"t":{"a":[1,2]},"u":"café"}"#,
        #"[1,2,3]"#, #"[1,2]"#, #"[1,2,3,4]"#, #"[]"#, #"{}"#, #"[{}]"#, #"[[]]"#,
        #""a long string of more than fifteen bytes""#, #""a long string of more than fifteen bytez""#,
        "true", "false", "null", "0", "-0", "1e3", "1000", "[true]", "[null]",
    ]

    @Test func agreesWithParsingOnEveryPair() throws {
        for text in Self.texts {
            let bytes = Array(text.utf8)
            for other in Self.texts {
                let expected = try JSONValue.parse(Array(other.utf8))
                let parsedEqual = try JSONValue.parse(bytes) == expected
                #expect(JSONValue.parsed(bytes, equals: expected) == parsedEqual, "\(text) against \(other)")
            }
        }
    }

    @Test func bytesThatDoNotParseNeverMatch() throws {
        let expected = try JSONValue.parse(Array(#"{"a":[1,2]}"#.utf8))
        for text in [#"{"a":[1,2]"#, #"{"a":[1,2]} x"#, #"{"a":[1,2,]}"#, #"{"a" [1,2]}"#, ""] {
            #expect(!JSONValue.parsed(Array(text.utf8), equals: expected), "\(text)")
        }
        #expect(JSONValue.parsed(Array(#"{"a":[1,2]}"#.utf8), equals: expected))
    }
}

/// A number the scanner reads without making its text (at most 15 digits, no exponent) is the
/// `Double` that `Double(text)` makes, bit for bit.
struct ExactDoubleScanningTests {
    static func scanned(_ text: String) throws -> Double {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return try scanner.double()
        }
    }

    @Test func readsAsDoubleOfItsTextDoes() throws {
        var texts = ["0", "-0", "0.0", "-0.0", "17.104", "1", "123456789012345", "0.123456789012345", "-98765.4321",
                     "1234567890123456", "0.1234567890123456", "1e3", "2.5E-3", "9007199254740993", "0.30000000000000004"]
        var state: UInt64 = 0x0DD5
        for _ in 0..<2_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let digits = String(state >> 11).prefix(Int(state % 17) + 1)
            let point = Int(state >> 5 % 7) % (digits.count + 1)
            var text = String(digits.prefix(point)) + (point < digits.count ? "." + digits.dropFirst(point) : "")
            if text.hasPrefix(".") { text = "0" + text }
            if text.count > 1, text.hasPrefix("0"), !text.hasPrefix("0.") { text = String(text.drop { $0 == "0" }); if text.isEmpty || text.hasPrefix(".") { text = "0" + text } }
            texts.append(state & 1 == 0 ? text : "-" + text)
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            #expect(try Self.scanned(text).bitPattern == expected.bitPattern, "\(text)")
        }
    }
}
