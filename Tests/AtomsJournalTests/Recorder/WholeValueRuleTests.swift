@testable import AtomsJournal
import Testing

/// The rule every keyed delta follows, from one place (``ObjectDeltaWriter`` and
/// ``DictionaryDeltaWriter``): a value whose every member (or entry) was set whole is written
/// whole, since the delta would be longer; a value with one member kept gets a delta. Checked
/// on each path that writes a keyed delta: a struct compared through `Codable`, a struct kept
/// as its encoding, and dictionaries with string and with other keys.
struct WholeValueRuleTests {
    struct Pair: Codable, Equatable {
        var left: Int
        var right: String
    }

    struct Point: Codable, Hashable {
        var x: Int
        var y: Int
    }

    private func kind(_ change: ValueDiffer.Change) -> String {
        switch change {
        case .unchanged: "unchanged"
        case .replaced: "whole"
        case .delta(let bytes): String(decoding: bytes.prefix(5), as: UTF8.self)
        }
    }

    @Test func aStructWithEveryMemberChangedIsWrittenWhole() {
        let differ = ValueDiffer()
        let old = Pair(left: 1, right: "a")
        #expect(kind(differ.change(from: old, to: Pair(left: 3, right: "b"))) == "whole")
        #expect(kind(differ.change(from: old, to: Pair(left: 1, right: "b"))) == #"["o","#)
        #expect(kind(differ.change(from: old, to: old)) == "unchanged")
    }

    @Test func aStructKeptAsItsEncodingFollowsTheSameRule() {
        let old = Array(#"{"a":1,"b":2}"#.utf8)
        let oldMembers = [CompactJSONEncoder.Member(key: 1..<4, value: 5..<6), CompactJSONEncoder.Member(key: 7..<10, value: 11..<12)]
        let both = Array(#"{"a":3,"b":4}"#.utf8)
        let one = Array(#"{"a":1,"b":5}"#.utf8)
        #expect(kind(MemberDelta.change(old: old, oldMembers: oldMembers, new: both, newMembers: oldMembers)) == "whole")
        guard case .delta(let delta) = MemberDelta.change(old: old, oldMembers: oldMembers, new: one, newMembers: oldMembers) else {
            Issue.record("one member kept is a delta")
            return
        }
        #expect(String(decoding: delta, as: UTF8.self) == #"["o",{"b":5}]"#)
    }

    @Test func aDictionaryWithEveryEntryChangedIsWrittenWhole() {
        let differ = ValueDiffer()
        let old = ["a": 1, "b": 2]
        #expect(kind(differ.change(from: old, to: ["a": 3, "b": 4])) == "whole")
        #expect(kind(differ.change(from: old, to: ["c": 3])) == "whole")
        guard case .delta(let delta) = differ.change(from: old, to: ["a": 1, "b": 5]) else {
            Issue.record("one entry kept is a delta")
            return
        }
        #expect(String(decoding: delta, as: UTF8.self) == #"["o",{"b":5}]"#)
    }

    @Test func aDictionaryWrittenAsAListFollowsTheSameRule() {
        let differ = ValueDiffer()
        let old = [Point(x: 0, y: 0): 1, Point(x: 1, y: 1): 2]
        #expect(kind(differ.change(from: old, to: [Point(x: 0, y: 0): 3, Point(x: 1, y: 1): 4])) == "whole")
        guard case .delta(let delta) = differ.change(from: old, to: [Point(x: 0, y: 0): 1, Point(x: 1, y: 1): 5]) else {
            Issue.record("one entry kept is a delta")
            return
        }
        #expect(String(decoding: delta, as: UTF8.self) == #"["m",[[{"x":1,"y":1},5]],[],[]]"#)
    }
}
