import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Each atom's values reach the journal through its capture slot: typed, in order across the
/// atoms a transaction changes, whichever way a slot records them (compared typed, encoded at
/// capture, checked per value, redacted), for every recorder of a store.
@MainActor
struct CaptureSlotTests {
    struct Profile: Codable, Equatable {
        var name: String
        var scores: [Int]
    }

    struct ProfileAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Profile { Profile(name: "start", scores: []) }
    }

    struct CountAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Int { 0 }
    }

    /// Derived from both: a transaction that writes either changes two atoms.
    struct SummaryAtom: ValueAtom, Hashable {
        func value(context: Context) -> String {
            "\(context.watch(ProfileAtom()).name):\(context.watch(CountAtom()))"
        }
    }

    /// Decided per value (another case could carry other payloads).
    enum Shape: Codable, Equatable {
        case circle(radius: Int)
        case square(side: Int)
    }

    struct ShapeAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Shape { .circle(radius: 1) }
    }

    /// A class instance inside: encoded as it commits.
    final class Box: Codable, @unchecked Sendable {
        var count: Int
        init(count: Int) { self.count = count }
    }

    struct BoxAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Box { Box(count: 0) }
    }

    struct SecretAtom: StateAtom, Hashable, JournalRedacted {
        func defaultValue(context: Context) -> String { "hidden" }
    }

    /// The value of the atom labelled `label` at every step from the first, as JSON text.
    private func history(of label: String, in journal: JournalReader) throws -> [String?] {
        try (journal.firstStep...journal.lastStep).map { step in
            let state = try journal.state(at: step)
            return state.liveAtoms.first { $0.label == label }.flatMap { state.values[$0.id]?.v?.jsonText }
        }
    }

    /// A session writing every kind of atom, several per transaction: the journal holds each
    /// value at each step, the same for a file journal and one in memory.
    @Test func everyKindOfSlotRecordsEveryValueInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("kinds.jsonl")
        let memory = InMemoryJournalSink()
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(SummaryAtom())
        // Values set before recording starts are seeded, then compared typed.
        context[ProfileAtom()] = Profile(name: "seeded", scores: [1])
        let fileRecorder = try JournalRecorder(path: path, keyframeInterval: 7)
        let memoryRecorder = JournalRecorder(sink: memory, keyframeInterval: 5)
        fileRecorder.attach(to: root.store)
        memoryRecorder.attach(to: root.store)
        context.watch(ShapeAtom())
        context.watch(BoxAtom())
        context.watch(SecretAtom())

        var expectedSummaries: [String] = []
        for round in 1...40 {
            context[ProfileAtom()].scores.append(round)
            context[CountAtom()] = round
            expectedSummaries.append("\"seeded:\(round)\"")
            context[ShapeAtom()] = round.isMultiple(of: 2) ? .square(side: round) : .circle(radius: round)
            context[BoxAtom()] = Box(count: round)
            context[SecretAtom()] = "secret \(round)"
        }
        try fileRecorder.close()
        try memoryRecorder.close()

        let memoryPath = directory.path("memory.jsonl")
        try memory.text.write(toFile: memoryPath, atomically: true, encoding: .utf8)
        for journalPath in [path, memoryPath] {
            let journal = try JournalReader(path: journalPath)
            let profiles = try history(of: "ProfileAtom", in: journal).compactMap { $0 }
            // Each score appended once, in order; the name as seeded.
            let scores = (1...40).map(String.init).joined(separator: ",")
            let lastProfile = #"{"name":"seeded","scores":[1,"# + scores + "]}"
            #expect(profiles.last == lastProfile)
            #expect(Set(profiles).count == 41, "the seeded value and one per round, in \(journalPath)")
            // Each summary once, in order (a step that changed other atoms repeats it).
            let summaries = try history(of: "SummaryAtom", in: journal).compactMap { $0 }
                .reduce(into: [String]()) { distinct, summary in
                    if distinct.last != summary { distinct.append(summary) }
                }
            #expect(Array(summaries.suffix(40)) == expectedSummaries, "\(journalPath)")
            let shapes = try history(of: "ShapeAtom", in: journal).compactMap { $0 }
            #expect(shapes.last == #"{"square":{"side":40}}"#)
            let boxes = try history(of: "BoxAtom", in: journal).compactMap { $0 }
            #expect(boxes.last == #"{"count":40}"#)
            // Never written, only marked.
            let text = try String(contentsOfFile: journalPath, encoding: .utf8)
            #expect(!text.contains("secret"))
            #expect(!text.contains("hidden"))
        }
    }

    /// A struct changed after it was seeded is written as a delta of the changed member: the
    /// slot compared it typed with the seeded value, not whole.
    @Test func aSeededValueIsComparedTypedWithTheNextOne() throws {
        let memory = InMemoryJournalSink()
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(ProfileAtom())
        context[ProfileAtom()] = Profile(name: "seeded", scores: Array(0..<100))
        let recorder = JournalRecorder(sink: memory)
        recorder.attach(to: root.store)
        context[ProfileAtom()].scores[50] = -1
        try recorder.close()
        let transaction = try #require(memory.lines.last { $0.hasPrefix("[") })
        #expect(transaction.contains(#","d","#), "a delta entry: \(transaction)")
        // Its time left out: a time's digits may hold 99.
        #expect(!JournalLines.withoutTime(transaction).contains("99"), "only the changed element: \(transaction)")
    }

    struct Settings: Codable, Equatable {
        var volume: Int
        var muted: Bool
        var name: String
    }

    struct SettingsAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Settings { Settings(volume: 0, muted: false, name: "start") }
    }

    /// A struct of numbers, strings and booleans, compared as its encoding, holds its seeded
    /// value's encoding from the start: the first write after recording starts is a delta of
    /// the changed member, not the whole value, and a write of the same value is an equal one.
    @Test func aSeededFlatValueIsComparedAsItsEncodingWithTheNextOne() throws {
        let memory = InMemoryJournalSink()
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(SettingsAtom())
        context[SettingsAtom()] = Settings(volume: 3, muted: false, name: "seeded-name")
        let recorder = JournalRecorder(sink: memory)
        recorder.attach(to: root.store)
        context[SettingsAtom()].volume = 4
        context[SettingsAtom()] = Settings(volume: 4, muted: false, name: "seeded-name")
        try recorder.close()
        let transactions = memory.lines.filter { $0.hasPrefix("[") }.map(JournalLines.withoutTime)
        try #require(transactions.count == 2, "\(memory.lines)")
        #expect(transactions[0].contains(#","d",["o",{"volume":4}]"#), "a delta of the member: \(transactions[0])")
        #expect(!transactions[0].contains("seeded-name"), "only the changed member: \(transactions[0])")
        #expect(transactions[1].contains(#","="]"#), "an equal write: \(transactions[1])")
    }
}
