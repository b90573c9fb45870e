@testable import AtomsJournal
import AtomsJournalReader
import Testing

/// A replay's comparison of today's change with the recorded one: the recorded delta's bytes
/// are compared with today's first, and as JSON where the bytes differ, so a journal whose
/// deltas are spelled otherwise (members in another order, spaces) still matches.
struct RecordedComparisonTests {
    struct Stats: Codable, Equatable {
        var total: Int
        var totalCompleted: Int
        var percentCompleted: Double
    }

    static let old = Stats(total: 3, totalCompleted: 1, percentCompleted: 1.0 / 3)
    static let new = Stats(total: 3, totalCompleted: 2, percentCompleted: 2.0 / 3)

    /// Today's delta, as the recorder's differ writes it.
    static func todaysDelta() throws -> [UInt8] {
        guard case .delta(let bytes) = ValueDiffer().change(from: old, to: new) else {
            Issue.record("two members changed in a struct of three is a delta")
            return []
        }
        return bytes
    }

    static func change(recorded: [UInt8]) -> RecordedComparison.Change {
        RecordedComparison().change(from: old, to: new, recorded: .bytes(recorded[...]))
    }

    @Test func theSameBytesAreTheSameChange() throws {
        let today = try Self.todaysDelta()
        #expect(Self.change(recorded: today) == .delta(sameAsRecorded: true))
        // And the same verdict as the parsed delta gets.
        let parsed = try JSONValue.parse(today)
        #expect(RecordedComparison().change(from: Self.old, to: Self.new, recorded: .parsed(parsed)) == .delta(sameAsRecorded: true))
    }

    @Test func theSameDeltaSpelledOtherwiseIsTheSameChange() throws {
        let today = String(decoding: try Self.todaysDelta(), as: UTF8.self)
        #expect(today.contains(",{"), "\(today)")
        let spaced = today.replacingOccurrences(of: ",{", with: ", {").replacingOccurrences(of: ":", with: " : ")
        #expect(spaced != today)
        #expect(Self.change(recorded: Array(spaced.utf8)) == .delta(sameAsRecorded: true))
    }

    @Test func anotherDeltaOrOneThatDoesNotParseIsNot() throws {
        let today = String(decoding: try Self.todaysDelta(), as: UTF8.self)
        let other = today.replacingOccurrences(of: "\"totalCompleted\":2", with: "\"totalCompleted\":3")
        #expect(other != today, "\(today)")
        #expect(Self.change(recorded: Array(other.utf8)) == .delta(sameAsRecorded: false))
        #expect(Self.change(recorded: Array(today.dropLast().utf8)) == .delta(sameAsRecorded: false))
        #expect(RecordedComparison().change(from: Self.old, to: Self.new, recorded: nil) == .delta(sameAsRecorded: false))
    }
}
