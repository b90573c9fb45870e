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
