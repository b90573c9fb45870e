@testable import AtomsJournal
import Foundation
import Testing

/// `JSONValueDecoder` decodes a parsed value as a default `JSONDecoder` decodes its bytes:
/// the same values, and the same kind of error with the same coding path.
struct JSONValueDecoderTests {
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case polygon([Int])
        case empty
    }

    struct Everything: Codable, Equatable {
        var id: Int
        var small: Int8
        var big: UInt64
        var least: Int64
        var ratio: Double
        var single: Float
        var flag: Bool
        var name: String
        var note: String?
        var missing: Int?
        var tags: [String]
        var nested: [[Int]]
        var counts: [String: Int]
        var byNumber: [Int: String]
        var shapes: [Shape]
        var data: Data
        var url: URL
        var date: Date
        var decimal: Decimal
        var infinite: Double
        var set: Set<Int>
    }

    static let sample = Everything(
        id: 42, small: -8, big: .max, least: .min, ratio: 0.30000000000000004, single: 1.5, flag: true, name: "Ada \"Lovelace\" ✓", note: nil, missing: nil,
        tags: ["a", "b"], nested: [[1], [], [2, 3]], counts: ["x": 1, "y": 2], byNumber: [1: "one", 20: "twenty"],
        shapes: [.circle(radius: 2), .polygon([1, 2, 3]), .empty], data: Data([0, 1, 254, 255]), url: URL(string: "https://example.invalid/a?b=c")!,
        date: Date(timeIntervalSinceReferenceDate: 123.5), decimal: Decimal(string: "3.14159")!, infinite: -.infinity, set: [3, 1, 2]
    )

    /// The bytes a recorder writes, parsed.
    private func recorded<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try JSONValue.parse(Array(try encoder.encode(value)))
    }

    private func foundation<T: Decodable>(_ type: T.Type, _ json: JSONValue) throws -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        var bytes: [UInt8] = []
        json.writeJSON(into: &bytes)
        return try decoder.decode(type, from: Data(bytes))
    }

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let json = try recorded(Self.sample)
        let decoded = try JSONValueDecoder.decode(Everything.self, from: json)
        #expect(decoded == Self.sample)
        #expect(decoded == (try foundation(Everything.self, json)))
    }

    @Test func numbersWrittenWithAFractionDecodeAsIntegersWhenWhole() throws {
        #expect(try JSONValueDecoder.decode(Int.self, from: .number(JSONNumber(text: "2.0")!)) == 2)
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Int.self, from: .number(JSONNumber(text: "2.5")!)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(UInt8.self, from: .number(JSONNumber(300))) }
        #expect(try JSONValueDecoder.decode(Double.self, from: .string("NaN")).isNaN)
    }

    @Test(arguments: [
        #"{"id":"x"}"#,
        #"{"items":[1,"two"]}"#,
        #"{"items":[1,null]}"#,
        #"{"other":1}"#,
    ])
    func errorsNameThePathAsJSONDecoderDoes(text: String) throws {
        struct Shape: Decodable { var id: Int?; var items: [Int]? ; var required: Bool }
        let json = try JSONValue.parse(Array(text.utf8))
        func path(_ error: any Error) -> [String] {
            switch error as? DecodingError {
            case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?, .dataCorrupted(let context)?:
                context.codingPath.map(\.stringValue)
            default: ["not a DecodingError"]
            }
        }
        var ours: [String]?
        var theirs: [String]?
        do { _ = try JSONValueDecoder.decode(Shape.self, from: json) } catch { ours = path(error) }
        do { _ = try foundation(Shape.self, json) } catch { theirs = path(error) }
        #expect(theirs != nil, "JSONDecoder decodes \(text)")
        #expect(ours == theirs, "\(text)")
    }

    @Test func aFailedElementIsDecodedAgainAsSomethingElse() throws {
        // The lossy-array pattern: an element that fails is skipped by decoding it as another type.
        struct Lossy: Decodable {
            var values: [Int] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    if let value = try? container.decode(Int.self) {
                        values.append(value)
                    } else {
                        _ = try container.decode(String.self)
                    }
                }
            }
        }
        let json = try JSONValue.parse(Array(#"[1,"x",2]"#.utf8))
        #expect(try JSONValueDecoder.decode(Lossy.self, from: json).values == [1, 2])
        #expect(try foundation(Lossy.self, json).values == [1, 2])
    }

    @Test(arguments: ["1e400", "1e-400", "-9223372036854775809", "9007199254740993.0"])
    func numbersJSONDecoderRefusesAreRefused(text: String) throws {
        let json = JSONValue.number(try #require(JSONNumber(text: text)))
        let foundationRefuses = (try? foundation(Double.self, json)) == nil
        let oursRefuses = (try? JSONValueDecoder.decode(Double.self, from: json)) == nil
        #expect(oursRefuses == foundationRefuses, "\(text) as Double")
        // (JSONDecoder reads 1e-400 as the integer 0; this decoder refuses it, as it refuses it as a Double.)
        if text != "1e-400" {
            #expect(((try? JSONValueDecoder.decode(Int.self, from: json)) == nil) == ((try? foundation(Int.self, json)) == nil), "\(text) as Int")
        }
    }
}
