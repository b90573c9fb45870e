import Foundation
import Testing
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The compact encoder's output decodes with a default `JSONDecoder` to the value encoded, as
/// `JSONEncoder`'s does, and it names a top-level object's members exactly.
struct CompactJSONEncoderTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: Int?
    }

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case square(Double)
        case none
    }

    struct Everything: Codable, Equatable {
        var int = -42
        var unsigned: UInt8 = 255
        var big = Int64.max
        var double = 0.1
        var whole = 3.0
        var float: Float = 1.5
        var flag = true
        var text = "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀 </slash>"
        var missing: String?
        var present: String? = "here"
        var list = [1, 2, 3]
        var empty: [String] = []
        var nested = [[Address(street: "Main", zip: nil)], []]
        var byName = ["b": 2, "a": 1, "c": 3]
        var byNumber = [10: "ten", 2: "two"]
        var shapes: [Shape] = [.circle(radius: 2), .square(3), .none]
        var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        var data = Data([0, 1, 2, 250])
        var url = URL(string: "https://example.com/a?b=c")!
        var decimal = Decimal(string: "12.345")!
        var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    }

    /// A class that encodes its superclass's fields through `superEncoder()`.
    class Base: Codable {
        var name = "base"
    }

    final class Derived: Base, @unchecked Sendable {
        var extra = 1

        override init() {
            super.init()
        }

        required init(from decoder: any Decoder) throws {
            fatalError("not used")
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }

        enum CodingKeys: String, CodingKey {
            case extra
        }
    }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let output = try CompactJSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(T.self, from: Data(output.bytes)) == value)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test func everyKindOfValueDecodesBackToItself() throws {
        let text = try roundTrip(Everything())
        // Dictionaries have sorted keys, so equal values encode to equal bytes.
        #expect(text.contains(#""byName":{"a":1,"b":2,"c":3}"#))
        #expect(text.contains(#""byNumber":{"2":"two","10":"ten"}"#), "integer keys in numeric order")
        #expect(!text.contains("missing"))
        #expect(text.contains(#""whole":3,"#))
    }

    @Test func scalarsAndTopLevelCollections() throws {
        #expect(try roundTrip(7) == "7")
        #expect(try roundTrip("a\"b") == #""a\"b""#)
        #expect(try roundTrip([Address(street: "x", zip: 1)]) == #"[{"street":"x","zip":1}]"#)
        #expect(try roundTrip(Optional<Int>.none) == "null")
        #expect(try roundTrip(Shape.none) == #"{"none":{}}"#)
        #expect(try roundTrip([String: Int]()) == "{}")
    }

    @Test func topLevelMembersAreTheObjectsKeysAndValues() throws {
        let output = try CompactJSONEncoder().encode(Address(street: "Elm", zip: 12))
        let members = try #require(output.members)
        let text = { (range: Range<Int>) in String(decoding: output.bytes[range], as: UTF8.self) }
        #expect(members.map { text($0.key) } == [#""street""#, #""zip""#])
        #expect(members.map { text($0.value) } == [#""Elm""#, "12"])
        #expect(try CompactJSONEncoder().encode([1, 2]).members == nil)
        // Members whose values are nested containers end where the container closes.
        let everything = try CompactJSONEncoder().encode(Everything())
        let last = try #require(everything.members?.last)
        #expect(last.value.upperBound == everything.bytes.count - 1)
        #expect(everything.members?.count == 20, "every member but the nil one")
    }

    @Test func superEncoderFallsBackToJSONEncoder() throws {
        #expect(throws: CompactJSONEncoder.Unsupported.self) {
            try CompactJSONEncoder().encode(Derived())
        }
        let json = try #require(ValueEncoder().json(of: Derived()))
        let object = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any]
        #expect(object?["extra"] as? Int == 1)
        #expect((object?["super"] as? [String: Any])?["name"] as? String == "base")
        #expect(json.members == nil)
    }
}
