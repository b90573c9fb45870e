import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The recorder's table of live values: the same contents as a dictionary under any sequence
/// of sets and removals, and a size that follows the live atoms, not the numbers handed out.
struct ValueTableTests {
    private func number(_ value: RecordedValue?) -> Int? {
        guard case .swift(let value)? = value else { return nil }
        return value as? Int
    }

    @Test func holdsWhatADictionaryHolds() {
        var table = ValueTable()
        var expected: [Int: Int] = [:]
        var random = SeededGenerator(seed: 33)
        var retiredCount = 0
        for round in 0..<20_000 {
            // Numbers mostly climb, as atoms come and go; a few stay.
            let id = random.next(4) == 0 ? 1 + random.next(8) : max(1, round / 4 - random.next(64))
            if random.next(3) == 0 {
                if expected[id] != nil { retiredCount += 1 }
                table[id] = nil
                expected[id] = nil
            } else {
                if expected[id] != nil { retiredCount += 1 }
                table[id] = .swift(round)
                expected[id] = round
            }
            if round % 997 == 0 {
                for probe in 1...(round / 4 + 9) {
                    #expect(number(table[probe]) == expected[probe], "round \(round), atom \(probe)")
                }
            }
        }
        #expect(table.count == expected.count)
        #expect(table.entries.map(\.id) == expected.keys.sorted())
        #expect(table.entries.map { number($0.value) } == expected.keys.sorted().map { expected[$0] })
        #expect(table.takeRetired().count == retiredCount, "replaced and removed Swift values are handed back")
        #expect(table.takeRetired().isEmpty)
    }

    @Test func shrinksWhenAtomsGo() {
        var table = ValueTable()
        for id in 1...10_000 {
            table[id] = .swift(id)
        }
        #expect(table.capacity >= 10_000)
        for id in 1...10_000 where id % 1_000 != 0 {
            table[id] = nil
        }
        #expect(table.count == 10)
        #expect(table.capacity <= 128, "\(table.capacity) buckets for 10 live atoms")
        #expect(table.entries.map(\.id) == Array(stride(from: 1_000, through: 10_000, by: 1_000)))
        // Family members one after another: the table stays small however high numbers go.
        for id in 10_001...200_000 {
            table[id] = .swift(id)
            if id - 1 > 10_000 { table[id - 1] = nil }
        }
        #expect(table.count == 11)
        #expect(table.capacity <= 128)
    }
}
