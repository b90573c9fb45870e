import Atoms
@testable import AtomsJournal
import AtomsJournalMacros
import Foundation
import TestSupport
import Testing

/// A `@JournalRecordable` type records the very bytes its `Codable` twin records: the same
/// whole values, the same deltas, the same keyframes, over random histories of edits.
@MainActor
@Suite struct RecordedBytesTests {
    /// Six seeds; fewer when `ATOMS_MODEL_SEEDS` says so (the ThreadSanitizer run, where the
    /// main actor these tests hold is shared with tests waiting for it).
    nonisolated static let seeds: [UInt64] = ProcessInfo.processInfo.environment["ATOMS_MODEL_SEEDS"] == nil ? [1, 2, 3, 4, 5, 6] : [1, 2]
    static let editsPerHistory = 300

    @Test(arguments: seeds)
    func journalsMatchTheCodableTwins(seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed)
        var board = Generated.Board(title: "Board", items: [], pinned: nil, version: 0)
        var items: [Generated.Item] = []
        var tag = Generated.Tag(name: "t", weight: 0)
        var history: [(board: Generated.Board?, items: [Generated.Item]?, tag: Generated.Tag?)] = []
        var nextID = 1
        for _ in 0..<Self.editsPerHistory {
            switch rng.next(5) {
            case 0:
                Self.edit(&board, &rng, nextID: &nextID)
                history.append((board, nil, nil))
            case 1, 2:
                Self.edit(&items, &rng, nextID: &nextID)
                history.append((nil, items, nil))
            case 3:
                if rng.next(2) == 0 { tag.weight += 1 } else { tag.name = Self.text(&rng) }
                history.append((nil, nil, tag))
            default:
                // The same values written again.
                history.append((board, items, nil))
            }
        }
        let interval = 1 + rng.next(16)

        let generated = await recordGenerated(history, keyframeInterval: interval)
        let synthesized = try await recordSynthesis(history, keyframeInterval: interval)
        let masked = generated.map { Self.masked($0.replacingOccurrences(of: "Generated.", with: "Synthesis.")) }
        let expected = synthesized.map(Self.masked)
        // Transaction lines, in order. Keyframes are compared where both journals have one: when
        // one falls due depends on the bytes written since the last, times included, whose
        // digits vary from run to run.
        let transactions = masked.filter { $0.hasPrefix("[") }
        let expectedTransactions = expected.filter { $0.hasPrefix("[") }
        #expect(transactions.count == expectedTransactions.count, "seed \(seed): as many transactions")
        for (index, (line, twin)) in zip(transactions, expectedTransactions).enumerated() where line != twin {
            Issue.record("seed \(seed), transaction \(index + 1):\n  generated:   \(line)\n  synthesized: \(twin)")
            break
        }
        let keyframes = Self.keyframesBySeq(masked)
        let expectedKeyframes = Self.keyframesBySeq(expected)
        let common = Set(keyframes.keys).intersection(expectedKeyframes.keys)
        // The opening keyframe at least; usually most of them (when the clocks of the two
        // recordings drift apart, fewer).
        #expect(!common.isEmpty, "seed \(seed): keyframes at the same steps")
        for seq in common.sorted() where keyframes[seq] != expectedKeyframes[seq] {
            Issue.record("seed \(seed), keyframe at \(seq):\n  generated:   \(keyframes[seq]!)\n  synthesized: \(expectedKeyframes[seq]!)")
            break
        }
        // The histories exercise deltas, not only whole values.
        #expect(generated.filter { $0.contains(#","d",["o""#) }.count > 20, "seed \(seed): object deltas")
        #expect(generated.filter { $0.contains(#","d",["a""#) }.count > 20, "seed \(seed): array deltas")
    }

    /// The recorder calls a `JournalRecordable` type's code: a conformance written by hand to
    /// say something else is what the journal holds.
    @Test func theRecorderUsesTheTypesOwnCode() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: 100)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(SpyAtom())
        context[SpyAtom()] = Spy(value: 1)
        context[SpyAtom()] = Spy(value: 2)
        try recorder.flush()
        let lines = sink.lines.filter { $0.hasPrefix("[") }
        #expect(lines.first?.contains(#""v",{"spy":0}"#) == true, "the initial value, written whole by the type")
        #expect(lines.dropFirst().first?.contains(#""d",["o",{"spy":1}]"#) == true, "a change, found by the type")
        #expect(lines.last?.contains(#""d",["o",{"spy":2}]"#) == true)
    }

    /// A struct isolated to the main actor records through its own code too.
    @Test func aMainActorStructRecords() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: 100)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(MainActorSettingsAtom())
        context[MainActorSettingsAtom()].volume = 3
        try recorder.flush()
        let lines = sink.lines.filter { $0.hasPrefix("[") }
        #expect(lines.first?.contains(#""v",{"volume":0,"name":"a"}"#) == true)
        #expect(lines.last?.contains(#""d",["o",{"volume":3}]"#) == true, "\(lines)")
    }

    /// A member that cannot be encoded sends the whole value down the `Codable` path, as its
    /// twin goes: recorded as a dump, not restorable, and nothing traps.
    @Test func aMemberThatCannotBeEncodedFallsBackToCodable() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: 100)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(FragileAtom())
        context[FragileAtom()] = Fragile(id: 1, part: Unencodable())
        try recorder.flush()
        let lines = sink.lines.filter { $0.hasPrefix("[") }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains(#""dump":"#) }, "\(lines)")
    }

    /// A member whose bits changed while `==` holds (minus zero to zero) is a change: the
    /// journal holds what the value encodes to. (The `Codable` path of an `Equatable` struct
    /// asks `==` first and records it as unchanged.)
    @Test func minusZeroIsAChange() throws {
        let differ = ValueDiffer()
        let tag = Generated.Tag(name: "a", weight: 1)
        var rng = SeededGenerator(seed: 7)
        var item = Self.item(id: 1, &rng)
        item.score = -0.0
        var changed = item
        changed.score = 0
        guard case .delta(let delta) = differ.recordableChange(from: item, to: changed) else {
            Issue.record("minus zero to zero is a change")
            return
        }
        #expect(String(decoding: delta, as: UTF8.self) == #"["o",{"score":0}]"#)
        guard case .unchanged = differ.recordableChange(from: tag, to: tag) else {
            Issue.record("a value is unchanged from itself")
            return
        }
    }

    /// The JSON a `JournalRecordable` type writes is what the recorder's `Codable` encoder
    /// writes for its twin, byte for byte.
    @Test(arguments: seeds)
    func wholeValuesMatchTheCodableEncoding(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &+ 100)
        var board = Generated.Board(title: "B", items: [], pinned: nil, version: 0)
        var nextID = 1
        let differ = ValueDiffer()
        for _ in 0..<200 {
            Self.edit(&board, &rng, nextID: &nextID)
            let twin = try Self.twin(board, as: Synthesis.Board.self)
            let written = try #require(differ.recordableJSON(of: board))
            let encoded = try #require(ValueEncoder().json(of: twin)?.bytes)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        }
    }

    // MARK: Recording

    private func recordGenerated(_ history: [(board: Generated.Board?, items: [Generated.Item]?, tag: Generated.Tag?)], keyframeInterval: Int) async -> [String] {
        await record(history, atoms: (Generated.BoardAtom(), Generated.ItemsAtom(), Generated.TagAtom(), Generated.OpenItemsAtom()), keyframeInterval: keyframeInterval)
    }

    private func recordSynthesis(_ history: [(board: Generated.Board?, items: [Generated.Item]?, tag: Generated.Tag?)], keyframeInterval: Int) async throws -> [String] {
        let twins = try history.map { step in
            (
                board: try step.board.map { try Self.twin($0, as: Synthesis.Board.self) },
                items: try step.items.map { try Self.twin($0, as: [Synthesis.Item].self) },
                tag: try step.tag.map { try Self.twin($0, as: Synthesis.Tag.self) }
            )
        }
        return await record(twins, atoms: (Synthesis.BoardAtom(), Synthesis.ItemsAtom(), Synthesis.TagAtom(), Synthesis.OpenItemsAtom()), keyframeInterval: keyframeInterval)
    }

    /// Records a history; both families' writes come from these lines, so that their
    /// locations are the same. Yields the main actor now and then: other suites wait for it.
    private func record<BoardAtom: StateAtom, ItemsAtom: StateAtom, TagAtom: StateAtom, OpenAtom: ValueAtom>(
        _ history: [(board: BoardAtom.Value?, items: ItemsAtom.Value?, tag: TagAtom.Value?)],
        atoms: (board: BoardAtom, items: ItemsAtom, tag: TagAtom, open: OpenAtom),
        keyframeInterval: Int
    ) async -> [String] {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: keyframeInterval)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(atoms.board)
        _ = context.watch(atoms.open)
        _ = context.watch(atoms.tag)
        for (index, step) in history.enumerated() {
            if index % 25 == 0 { await Task.yield() }
            if let board = step.board { context[atoms.board] = board }
            if let items = step.items { context[atoms.items] = items }
            if let tag = step.tag { context[atoms.tag] = tag }
        }
        #expect((try? recorder.flush()) != nil, "the recorder stored every line")
        return sink.lines
    }

    /// The keyframe lines by their step.
    private static func keyframesBySeq(_ lines: [String]) -> [Int: String] {
        var keyframes: [Int: String] = [:]
        for line in lines where line.hasPrefix(#"{"type":"keyframe","seq":"#) {
            let digits = line.dropFirst(#"{"type":"keyframe","seq":"#.count).prefix { $0.isNumber }
            if let seq = Int(digits) { keyframes[seq] = line }
        }
        return keyframes
    }

    /// A line without what depends on the clock.
    private static func masked(_ line: String) -> String {
        line.replacingOccurrences(of: #"^\[(\d+),[-0-9.e+]+,"#, with: "[$1,T,", options: .regularExpression)
            .replacingOccurrences(of: #""created":"[^"]*""#, with: #""created":"T""#, options: .regularExpression)
    }

    /// The same value as the `Codable` twin type, through JSON.
    private static func twin<From: Encodable, To: Decodable>(_ value: From, as type: To.Type) throws -> To {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(type, from: encoder.encode(value))
    }

    // MARK: Random edits

    private static func text(_ rng: inout SeededGenerator) -> String {
        ["plain", "with \"quotes\"", "line\nbreak", "tab\there", "back\\slash", "ünïcødé ✓", "", "control \u{1}"][rng.next(8)]
    }

    private static func double(_ rng: inout SeededGenerator) -> Double {
        // No minus zero: `==` finds it equal to zero, which the `Codable` path asks of an
        // `Equatable` struct before comparing members (`minusZeroIsAChange`).
        [0, 0.25, 1.5, 1e20, 3.141_592_653_589_793, .infinity, -2, Double(rng.next(1000)) / 7][rng.next(8)]
    }

    private static func item(id: Int, _ rng: inout SeededGenerator) -> Generated.Item {
        Generated.Item(
            id: id, title: text(&rng), done: rng.next(2) == 0, score: double(&rng), ratio: Float(rng.next(100)) / 8,
            big: Int64(rng.next(1 << 20)) << 30, note: rng.next(2) == 0 ? nil : text(&rng),
            tag: Generated.Tag(name: text(&rng), weight: rng.next(10)),
            tags: (0..<rng.next(3)).map { _ in Generated.Tag(name: text(&rng), weight: rng.next(10)) },
            extra: rng.next(3) == 0 ? Generated.Tag(name: "x", weight: 1) : nil,
            labels: (0..<rng.next(3)).map { _ in text(&rng) },
            counts: rng.next(2) == 0 ? [:] : ["a": rng.next(5), "b": rng.next(5)],
            kind: Kind.allCases[rng.next(3)],
            when: rng.next(2) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(rng.next(1_000_000)))
        )
    }

    private static func edit(_ item: inout Generated.Item, _ rng: inout SeededGenerator) {
        switch rng.next(14) {
        case 0: item.done.toggle()
        case 1: item.title = text(&rng)
        case 2: item.score = double(&rng)
        case 3: item.ratio = Float(rng.next(100)) / 8
        case 4: item.big += 1
        case 5: item.note = rng.next(2) == 0 ? nil : text(&rng)
        case 6: item.tag.weight += 1
        case 7: item.tags.append(Generated.Tag(name: text(&rng), weight: rng.next(5)))
        case 8: if !item.tags.isEmpty { item.tags.removeLast() }
        case 9: item.extra = item.extra == nil ? Generated.Tag(name: text(&rng), weight: 2) : nil
        case 10: item.labels = (0..<rng.next(3)).map { _ in text(&rng) }
        case 11: item.counts[["a", "b", "c"][rng.next(3)]] = rng.next(2) == 0 ? nil : rng.next(9)
        case 12: item.kind = Kind.allCases[rng.next(3)]
        default: item.when = rng.next(2) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(rng.next(1_000_000)))
        }
    }

    private static func edit(_ items: inout [Generated.Item], _ rng: inout SeededGenerator, nextID: inout Int) {
        switch rng.next(10) {
        case 0, 1:
            items.insert(item(id: nextID, &rng), at: rng.next(items.count + 1))
            nextID += 1
        case 2:
            if !items.isEmpty { items.remove(at: rng.next(items.count)) }
        case 3:
            if items.count > 1 { items.swapAt(rng.next(items.count), rng.next(items.count)) }
        case 4:
            // Several elements at once.
            for _ in 0..<3 where !items.isEmpty {
                edit(&items[rng.next(items.count)], &rng)
            }
        default:
            if items.isEmpty {
                items.append(item(id: nextID, &rng))
                nextID += 1
            } else {
                edit(&items[rng.next(items.count)], &rng)
            }
        }
    }

    private static func edit(_ board: inout Generated.Board, _ rng: inout SeededGenerator, nextID: inout Int) {
        switch rng.next(8) {
        case 0: board.title = text(&rng)
        case 1: board.version += 1
        case 2: board.pinned = board.pinned == nil ? item(id: 0, &rng) : nil
        case 3: if board.pinned != nil { edit(&board.pinned!, &rng) }
        case 4:
            // Every member at once: written whole.
            board = Generated.Board(title: text(&rng) + "!", items: [item(id: nextID, &rng)], pinned: item(id: -1, &rng), version: board.version + 1)
            nextID += 1
        default: edit(&board.items, &rng, nextID: &nextID)
        }
    }
}

/// A value whose conformance is written by hand, to show the recorder calls it.
struct Spy: Codable, Hashable, Sendable {
    var value: Int
}

extension Spy: JournalRecordable {
    func writeJournalJSON(to writer: inout _JournalJSONWriter) {
        writer.beginObject()
        writer.member("spy", value)
        writer.endObject()
    }

    func writeJournalChanges(from old: Spy, to changes: inout _JournalChanges) {
        changes.compare("spy", old.value, value)
        // A second member that never changes, so that a changed value is a delta.
        changes.compare("same", 0, 0)
    }
}

struct SpyAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Spy { Spy(value: 0) }
}

/// A member whose encoding always fails.
struct Unencodable: Codable, Hashable, Sendable {
    struct Refused: Error {}
    init() {}
    init(from decoder: any Decoder) throws { throw Refused() }
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

@JournalRecordable
struct Fragile: Codable, Hashable, Sendable {
    var id: Int
    var part: Unencodable
}

struct FragileAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Fragile { Fragile(id: 0, part: Unencodable()) }
}
