import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Random value histories per collection shape, recorded as deltas: the state the reader
/// rebuilds at every step must equal the value the app set, and equal exactly (as JSON, in the
/// canonical order) what a whole write of that value records.
@MainActor
struct ValueDeltaPropertyTests {
    static let historiesPerShape = 200
    static let editsPerHistory = 12

    @Test func arraysOfStructs() async throws {
        try await checkHistories(seed: 1, initial: { rng in Item.list(&rng) }) { value, rng in
            Item.editList(&value, &rng)
        }
    }

    @Test func arraysOfStructsThatAreNotEquatable() async throws {
        try await checkHistories(seed: 2, initial: { rng in Item.list(&rng).map(PlainItem.init) }) { value, rng in
            var items = value.map(\.item)
            Item.editList(&items, &rng)
            value = items.map(PlainItem.init)
        }
    }

    @Test func dictionariesWithStringKeys() async throws {
        try await checkHistories(seed: 3, initial: { rng in Dictionary(Item.list(&rng).map { ("k\($0.id)", $0) }, uniquingKeysWith: { $1 }) }) { value, rng in
            let key = "k\(rng.next(12))"
            switch rng.next(4) {
            case 0: value[key] = nil
            case 1: value[key] = Item.random(&rng)
            default: value[key]?.edit(&rng)
            }
        }
    }

    @Test func dictionariesWithIntKeys() async throws {
        try await checkHistories(seed: 4, initial: { rng in [Int: [Int]](uniqueKeysWithValues: (0..<rng.next(6)).map { ($0 * 7, [$0]) }) }) { value, rng in
            let key = rng.next(10) * 7
            switch rng.next(3) {
            case 0: value[key] = nil
            case 1: value[key] = (0..<rng.next(4)).map { _ in rng.next(100) }
            default: value[key, default: []].append(rng.next(100))
            }
        }
    }

    @Test func dictionariesWithEnumKeys() async throws {
        try await checkHistories(seed: 5, initial: { _ in [Color: Item]() }) { value, rng in
            let key = Color.allCases[rng.next(Color.allCases.count)]
            switch rng.next(3) {
            case 0: value[key] = nil
            case 1: value[key] = Item.random(&rng)
            default: value[key]?.edit(&rng)
            }
        }
    }

    @Test func sets() async throws {
        try await checkHistories(seed: 6, initial: { rng in Set((0..<rng.next(8)).map { "s\($0 * 3)" }) }) { value, rng in
            let element = "s\(rng.next(30))"
            if rng.next(2) == 0 { value.insert(element) } else { value.remove(element) }
            if rng.next(5) == 0 { value = Set(value.prefix(rng.next(value.count + 1))) }
        }
    }

    @Test func setsOfStructs() async throws {
        try await checkHistories(seed: 7, initial: { rng in Set(Item.list(&rng)) }) { value, rng in
            if rng.next(2) == 0, let some = value.randomElement(using: &rng) {
                value.remove(some)
            } else {
                value.insert(Item.random(&rng))
            }
        }
    }

    @Test func nestedOptionals() async throws {
        try await checkHistories(seed: 8, initial: { rng in Optional(Item.list(&rng).map(Optional.some)) }) { value, rng in
            switch rng.next(5) {
            case 0: value = value == nil ? [] : nil
            case 1: value?.append(rng.next(2) == 0 ? nil : Item.random(&rng))
            case 2: if let count = value?.count, count > 0 { value?[rng.next(count)] = nil }
            default: if let count = value?.count, count > 0 { value?[rng.next(count)]?.edit(&rng) }
            }
        }
    }

    @Test func arraysOfArrays() async throws {
        try await checkHistories(seed: 9, initial: { rng in (0..<rng.next(5)).map { _ in (0..<rng.next(5)).map { _ in rng.next(50) } } }) { value, rng in
            switch rng.next(4) {
            case 0: value.insert((0..<rng.next(4)).map { _ in rng.next(50) }, at: rng.next(value.count + 1))
            case 1: if !value.isEmpty { value.remove(at: rng.next(value.count)) }
            case 2:
                if !value.isEmpty {
                    let index = rng.next(value.count)
                    value[index].insert(rng.next(50), at: rng.next(value[index].count + 1))
                }
            default: if value.count > 1 { value.swapAt(rng.next(value.count), rng.next(value.count)) }
            }
        }
    }

    @Test func flatStructs() async throws {
        try await checkHistories(seed: 10, initial: { rng in FlatItem.random(&rng) }) { value, rng in
            switch rng.next(4) {
            case 0: value.count += 1
            case 1: value.label = rng.next(3) == 0 ? nil : "label \(rng.next(20))"
            case 2: value.ratio = Double(rng.next(1000)) / 16
            case 3: value.ratio = FloatingPointZero.flipped(value.ratio)
            default: value = FlatItem.random(&rng)
            }
        }
    }

    /// Numbers whose only change is the sign of a zero: `==` calls them equal, the journal
    /// writes `0` and `-0`. Fewer histories: a zero's sign changes at every edit here, and
    /// the suite holds the main actor that other suites wait for.
    @Test func signsOfZero() async throws {
        try await checkHistories(seed: 11, histories: 40, expectingDeltas: false, initial: { rng in (0..<1 + rng.next(4)).map { _ in rng.next(2) == 0 ? 0.0 : -0.0 } }) { value, rng in
            let index = rng.next(value.count)
            value[index] = FloatingPointZero.flipped(value[index])
        }
        try await checkHistories(seed: 12, histories: 40, expectingDeltas: false, initial: { _ in 0.0 }) { value, _ in
            value = FloatingPointZero.flipped(value)
        }
        try await checkHistories(seed: 13, histories: 40, expectingDeltas: false, initial: { _ in Set([0.0, 1.0]) }) { value, _ in
            if value.contains(0), value.first(where: { $0 == 0 })!.sign == .minus {
                value.remove(0)
                value.insert(0.0)
            } else {
                value.remove(0)
                value.insert(-0.0)
            }
        }
        try await checkHistories(seed: 14, histories: 40, expectingDeltas: false, initial: { rng in [Float(0), Float(rng.next(3))] }) { value, rng in
            let index = rng.next(value.count)
            value[index] = value[index] == 0 ? -value[index] : 0
        }
    }

    // MARK: Checking

    /// Records `historiesPerShape` histories and checks every step of each.
    /// Every delta of the journal, rewritten with object and array deltas only (as the HTML
    /// report embeds it), gives the same value as the delta itself.
    private func checkPositionalDeltas(_ journal: JournalReader, seed: UInt64, history: Int) throws {
        var state = try journal.state(at: journal.firstStep)
        for step in (journal.firstStep + 1)...max(journal.firstStep + 1, journal.lastStep) where step <= journal.lastStep {
            let transaction = try journal.transaction(step)
            for entry in transaction.values ?? [] {
                guard let delta = entry.delta, let old = state.values[entry.id]?.v else { continue }
                let positional = try ValueDelta.positional(delta, appliedTo: old)
                #expect(Self.kinds(of: positional).isSubset(of: ["o", "a"]), "seed \(seed) history \(history) step \(step): \(positional.jsonText)")
                #expect(try ValueDelta.apply(positional, to: old) == ValueDelta.apply(delta, to: old), "seed \(seed) history \(history) step \(step): \(delta.jsonText)")
            }
            _ = try journal.apply(step, to: &state, decodingValuesOf: nil)
        }
    }

    /// The kinds of a delta and of the deltas nested in it.
    private static func kinds(of delta: JSONValue) -> Set<String> {
        guard case .array(let parts) = delta, case .string(let kind)? = parts.first else { return ["?"] }
        var kinds: Set<String> = [kind]
        switch kind {
        case "o":
            if parts.count > 2, case .object(let nested) = parts[2] {
                for inner in nested.values { kinds.formUnion(Self.kinds(of: inner)) }
            }
        case "a":
            if parts.count > 1, case .array(let operations) = parts[1] {
                for case .array(let fields) in operations where fields.count == 2 { kinds.formUnion(Self.kinds(of: fields[1])) }
            }
        default:
            break
        }
        return kinds
    }

    private func checkHistories<Value: HistoryValue>(
        seed: UInt64,
        histories: Int = historiesPerShape,
        expectingDeltas: Bool = true,
        initial: (inout SplitMix) -> Value,
        edit: (inout Value, inout SplitMix) -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        var rng = SplitMix(seed: seed)
        var historiesWithDeltas = 0
        for history in 0..<histories {
            // Other tests' main-actor work runs between histories (see ModelTests).
            await Task.yield()
            let root = AtomRoot()
            let sink = InMemoryJournalSink()
            let recorder = JournalRecorder(sink: sink, keyframeInterval: 1 + rng.next(8))
            recorder.attach(to: root.store)
            let context = root.viewContext()
            let atom = HistoryAtom<Value>()
            _ = context.watch(atom)
            var value = initial(&rng)
            var expected: [Int: Value] = [:]
            for _ in 0..<Self.editsPerHistory {
                if rng.next(6) == 0 {
                    // An equal value written again.
                } else {
                    edit(&value, &rng)
                }
                context[atom] = value
                expected[root.store.committedTransactions] = value
            }
            try recorder.flush()
            let path = try directory.write("h\(history).jsonl", sink.text)
            let journal = try JournalReader(path: path)
            var advanced = try journal.state(at: journal.firstStep)
            for (step, value) in expected.sorted(by: { $0.key < $1.key }) {
                let state = try journal.state(at: step)
                advanced = try journal.advance(advanced, to: step)
                #expect(state == advanced, "seed \(seed) history \(history) step \(step): from a keyframe and stepping agree")
                let id = try #require(state.liveAtoms.first { $0.label.hasPrefix("HistoryAtom") }?.id)
                let recorded = try #require(state.values[id]?.v, "seed \(seed) history \(history) step \(step)")
                let whole = try #require(ValueEncoder().json(of: value)?.bytes)
                let decoded = try JSONDecoder().decode(Value.self, from: Data(recorded.jsonText.utf8))
                #expect(ValueEncoder().json(of: decoded)?.bytes == whole, "seed \(seed) history \(history) step \(step): the value read back")
                #expect(recorded == (try JSONValue.parse(whole)), "seed \(seed) history \(history) step \(step): a whole write records the same")
            }
            try checkPositionalDeltas(journal, seed: seed, history: history)
            if sink.lines.contains(where: { $0.contains(#","d",["#) }) {
                historiesWithDeltas += 1
            }
        }
        #expect(!expectingDeltas || historiesWithDeltas > histories / 2, "seed \(seed): most histories record deltas")
    }
}

/// An atom holding one value history.
private struct HistoryAtom<Value: HistoryValue>: StateAtom, Hashable {
    func defaultValue(context: Context) -> Value { .empty }
}

/// A value a history starts from before its first write.
protocol HistoryValue: Codable {
    static var empty: Self { get }
}

extension Array: HistoryValue where Element: Codable {
    static var empty: Self { [] }
}

extension Dictionary: HistoryValue where Key: Codable, Value: Codable {
    static var empty: Self { [:] }
}

extension Set: HistoryValue where Element: Codable {
    static var empty: Self { [] }
}

extension Double: HistoryValue {
    static var empty: Self { 0 }
}

/// Changes that only `==` cannot see.
enum FloatingPointZero {
    /// Zero when not zero; a zero with the other sign when zero.
    static func flipped(_ value: Double) -> Double {
        value == 0 ? -value : 0
    }
}

extension Optional: HistoryValue where Wrapped: Codable {
    static var empty: Self { nil }
}

/// A struct of numbers, strings and booleans: recorded as JSON and compared member by member.
struct FlatItem: HistoryValue {
    var count: Int
    var label: String?
    var ratio: Double
    var isOn: Bool

    static var empty: FlatItem { FlatItem(count: 0, label: nil, ratio: 0, isOn: false) }

    static func random(_ rng: inout SplitMix) -> FlatItem {
        FlatItem(count: rng.next(100), label: rng.next(2) == 0 ? nil : "l\(rng.next(9))", ratio: Double(rng.next(64)) / 8, isOn: rng.next(2) == 0)
    }
}

/// A seeded generator, so that a failing history can be run again.
typealias SplitMix = SeededGenerator

enum Color: String, Codable, CaseIterable, Hashable, Sendable {
    case red, green, blue, cyan, magenta
}

struct Item: Codable, Hashable, Sendable {
    var id: Int
    var name: String
    var tags: [String]
    var score: Double?

    static func random(_ rng: inout SplitMix) -> Item {
        Item(
            id: rng.next(1000), name: "item \(rng.next(100))",
            tags: (0..<rng.next(3)).map { "t\($0)" }, score: rng.next(2) == 0 ? nil : Double(rng.next(1000)) / 8
        )
    }

    static func list(_ rng: inout SplitMix) -> [Item] {
        (0..<rng.next(10)).map { _ in random(&rng) }
    }

    mutating func edit(_ rng: inout SplitMix) {
        switch rng.next(5) {
        case 0: name = "renamed \(rng.next(100))"
        case 1: tags.append("t\(rng.next(9))")
        case 2: score = rng.next(3) == 0 ? nil : Double(rng.next(1000)) / 4
        case 3: score = score.map(FloatingPointZero.flipped)
        default: if !tags.isEmpty { tags.removeFirst() }
        }
    }

    /// Inserts, removals, moves and member edits.
    static func editList(_ list: inout [Item], _ rng: inout SplitMix) {
        switch rng.next(6) {
        case 0: list.insert(random(&rng), at: rng.next(list.count + 1))
        case 1: if !list.isEmpty { list.remove(at: rng.next(list.count)) }
        case 2:
            if !list.isEmpty {
                let moved = list.remove(at: rng.next(list.count))
                list.insert(moved, at: rng.next(list.count + 1))
            }
        case 3: list.append(contentsOf: (0..<rng.next(4)).map { _ in random(&rng) })
        default: if !list.isEmpty { list[rng.next(list.count)].edit(&rng) }
        }
    }
}

/// `Item` without `Equatable`, for the element-by-element path.
struct PlainItem: Codable, Sendable {
    var item: Item

    init(_ item: Item) {
        self.item = item
    }
}
