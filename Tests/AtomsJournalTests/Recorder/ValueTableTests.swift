import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The recorder's table of what holds the live values (numbers here): the same contents as a
/// dictionary under any sequence of sets and removals, and a size that follows the live atoms,
/// not the numbers handed out.
struct ValueTableTests {
    /// The table's keyframe entries, each spelled `id:value`.
    private func entries(_ table: inout ValueTable<Int>) -> [String] {
        table.keyframeEntries { id, value in "\(id):\(value)" }
    }

    @Test func holdsWhatADictionaryHolds() {
        var table = ValueTable<Int>()
        var expected: [Int: Int] = [:]
        var random = SeededGenerator(seed: 33)
        for round in 0..<20_000 {
            // Numbers mostly climb, as atoms come and go; a few stay.
            let id = random.next(4) == 0 ? 1 + random.next(8) : max(1, round / 4 - random.next(64))
            if random.next(3) == 0 {
                table[id] = nil
                expected[id] = nil
            } else {
                table[id] = round
                expected[id] = round
            }
            if round % 997 == 0 {
                for probe in 1...(round / 4 + 9) {
                    #expect(table[probe] == expected[probe], "round \(round), atom \(probe)")
                }
            }
        }
        #expect(table.count == expected.count)
        #expect(entries(&table) == expected.keys.sorted().map { "\($0):\(expected[$0]!)" })
    }

    @Test func shrinksWhenAtomsGo() {
        var table = ValueTable<Int>()
        for id in 1...10_000 {
            table[id] = id
        }
        #expect(table.capacity >= 10_000)
        for id in 1...10_000 where id % 1_000 != 0 {
            table[id] = nil
        }
        #expect(table.count == 10)
        #expect(table.capacity <= 128, "\(table.capacity) buckets for 10 live atoms")
        #expect(entries(&table) == stride(from: 1_000, through: 10_000, by: 1_000).map { "\($0):\($0)" })
        // Family members one after another: the table stays small however high numbers go.
        for id in 10_001...200_000 {
            table[id] = id
            if id - 1 > 10_000 { table[id - 1] = nil }
        }
        #expect(table.count == 11)
        #expect(table.capacity <= 128)
    }

    /// A keyframe writes again only the values set since the last one, and never an entry a
    /// value set since has made stale: under sets, removals and the table's growing and
    /// shrinking, each call returns what writing every value would, and writes no more values
    /// than were set since the call before.
    @Test func keyframeEntriesWriteOnlyTheValuesSetSinceTheLastOnes() {
        var table = ValueTable<Int>()
        var expected: [Int: Int] = [:]
        var setSince: Set<Int> = []
        var random = SeededGenerator(seed: 50)
        var keyframes = 0
        for round in 0..<30_000 {
            // A few atoms written often, many that come and go (the table grows and shrinks).
            let id = random.next(2) == 0 ? 1 + random.next(6) : 7 + random.next(max(1, (round % 5_000) / 8))
            if random.next(4) == 0 {
                table[id] = nil
                expected[id] = nil
                setSince.remove(id)
            } else {
                table[id] = round
                expected[id] = round
                setSince.insert(id)
            }
            guard random.next(97) == 0 else { continue }
            keyframes += 1
            var written: [Int] = []
            let texts = table.keyframeEntries { id, value in
                written.append(id)
                return "\(id):\(value)"
            }
            #expect(texts == expected.keys.sorted().map { "\($0):\(expected[$0]!)" }, "round \(round)")
            #expect(Set(written) == setSince, "round \(round): only the values set since the last keyframe are written")
            #expect(written.count == setSince.count)
            setSince = []
        }
        #expect(keyframes > 200)
    }
}
