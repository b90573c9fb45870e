import Atoms
import Foundation
import Testing
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Only values with no class instance inside are encoded off the main actor.
struct OffThreadEncodingCheckTests {
    final class Model: Codable {
        var count = 0
    }

    struct Plain: Codable {
        var name: String
        var tags: [String]
        var scores: [String: Double]
        var when: Date
    }

    struct HoldsModel: Codable {
        var model: Model
    }

    enum Status: String, Codable {
        case on, off
    }

    enum Payload: Codable {
        case none
        case model(Model)
        case text(String)
    }

    struct NotCodable {
        var count: Int
    }

    @Test func plainValuesQualify() {
        var check = OffThreadEncodingCheck()
        func allows(_ value: Any) -> Bool { check.allowsLaterEncoding(of: value) }
        let plain = Plain(name: "a", tags: ["x"], scores: ["y": 1], when: Date())
        #expect(allows(plain))
        #expect(allows(plain), "and again, from the type's cached verdict")
        #expect(allows([plain, plain]))
        #expect(allows([Plain]()))
        #expect(allows(3))
        #expect(allows(Status.on))
        #expect(allows(Payload.text("t")))
        #expect(allows(Optional<Int>.none as Any))
        #expect(allows(["k": [1, 2]]))
    }

    @Test func valuesReachingAClassInstanceDoNot() {
        var check = OffThreadEncodingCheck()
        func allows(_ value: Any) -> Bool { check.allowsLaterEncoding(of: value) }
        #expect(!allows(Model()))
        #expect(!allows(HoldsModel(model: Model())))
        #expect(!allows([HoldsModel(model: Model())]))
        #expect(!allows(["k": Model()]))
        #expect(!allows(Payload.model(Model())))
        #expect(allows(Payload.none), "enums are decided per value")
        #expect(!allows(Optional(Model()) as Any))
    }

    @Test func otherPathsAndLargeValuesAreEncodedAtOnce() {
        var check = OffThreadEncodingCheck()
        func allows(_ value: Any) -> Bool { check.allowsLaterEncoding(of: value) }
        #expect(!allows(NotCodable(count: 1)))
        #expect(!allows(AsyncPhase<Int, Never>.success(1)))
        // An array of enums is walked per value, up to the limit.
        let many = Array(repeating: Payload.text("t"), count: OffThreadEncodingCheck.walkLimit + 1)
        #expect(!allows(many))
        #expect(allows(Array(many.prefix(10))))
    }

    /// A struct with an existential member: what it holds decides, value by value.
    struct HoldsAny: Encodable {
        var thing: any Encodable

        func encode(to encoder: any Encoder) throws {
            try thing.encode(to: encoder)
        }
    }

    /// A struct whose mirror hides a class instance it stores.
    struct Disguised: Codable, CustomReflectable {
        var model = Model()
        var customMirror: Mirror { Mirror(self, children: ["count": model.count]) }
    }

    @Test func anExistentialMemberIsCheckedForEveryValue() {
        var check = OffThreadEncodingCheck()
        let number = check.allowsLaterEncoding(of: HoldsAny(thing: 1))
        let object = check.allowsLaterEncoding(of: HoldsAny(thing: Model()))
        let text = check.allowsLaterEncoding(of: HoldsAny(thing: "text"))
        #expect(number && text)
        #expect(!object, "not a verdict cached from a number")
    }

    @Test func aCustomMirrorDoesNotHideAClassInstance() {
        var check = OffThreadEncodingCheck()
        let disguised = check.allowsLaterEncoding(of: Disguised())
        #expect(!disguised)
    }
}
