import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

// A generated graph for the model test: a family of numbers, sums of pairs of them, a list,
// a set, an enum-keyed dictionary, a summary derived from several, an atom whose effect writes,
// and an atom whose `onTermination` writes.

struct ModelNumberAtom: StateAtom {
    let id: Int
    var key: Int { id }
    func defaultValue(context: Context) -> Int { id }
}

struct ModelPairSumAtom: ValueAtom {
    let a: Int
    let b: Int
    var key: [Int] { [a, b] }
    func value(context: Context) -> Int {
        context.watch(ModelNumberAtom(id: a)) + context.watch(ModelNumberAtom(id: b))
    }
}

struct ModelItem: Codable, Hashable, Sendable {
    var id: Int
    var title: String
    var done: Bool
}

struct ModelListAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [ModelItem] { [] }
}

struct ModelTagsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Set<String> { [] }
}

struct ModelMapAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [Color: Int] { [:] }
}

struct ModelSummary: Codable, Equatable, Sendable {
    var open: Int
    var tags: [String]
    var first: Int
}

struct ModelSummaryAtom: ValueAtom, Hashable {
    func value(context: Context) -> ModelSummary {
        ModelSummary(
            open: context.watch(ModelListAtom()).filter { !$0.done }.count,
            tags: context.watch(ModelTagsAtom()).sorted(),
            first: context.watch(ModelNumberAtom(id: 0))
        )
    }
}

/// Numbers that may change only the sign of a zero, which `==` does not see.
struct ModelMeasure: Codable, Equatable, Sendable {
    var level: Double
    var samples: [Double]
}

struct ModelMeasureAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> ModelMeasure { ModelMeasure(level: 0, samples: [0, 1]) }
}

/// Its effect writes another atom on every update.
struct ModelEchoAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }

    func effect(context: CurrentContext) -> some AtomEffect {
        UpdateEffect {
            context[ModelNumberAtom(id: 1)] += 1
        }
    }
}

/// Its `onTermination` handler writes, on recomputation and on release.
struct ModelCleanupAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        let value = context.watch(ModelNumberAtom(id: 2))
        context.onTermination = {
            context[ModelNumberAtom(id: 3)] += 1
        }
        return value * 2
    }
}

/// Random programs of about 2,000 operations over the generated graph, recorded: at every step
/// the state the reader rebuilds equals the live store's snapshot (values, edges and
/// subscriptions). A failing seed prints its program.
@MainActor
struct ModelTests {
    /// 20 seeds; fewer when `ATOMS_MODEL_SEEDS` says so (the ThreadSanitizer run, ten times
    /// slower, checks races, not the model, and runs 5).
    nonisolated static let seeds: [UInt64] = Array(1...UInt64(max(1, ProcessInfo.processInfo.environment["ATOMS_MODEL_SEEDS"].flatMap(Int.init) ?? 20)))
    static let operations = 2_000

    /// Watches (or stops watching) one of the graph's atoms, by number.
    private static func watch(_ choice: Int, _ watching: Bool, from context: AtomViewContext) {
        func act(_ atom: some Atom) {
            if watching { context.watch(atom) } else { context.unwatch(atom) }
        }
        switch choice {
        case 0..<6: act(ModelNumberAtom(id: choice))
        case 6: act(ModelPairSumAtom(a: 0, b: 1))
        case 7: act(ModelPairSumAtom(a: 2, b: 5))
        case 8: act(ModelListAtom())
        case 9: act(ModelTagsAtom())
        case 10: act(ModelMapAtom())
        case 11: act(ModelSummaryAtom())
        case 12: act(ModelEchoAtom())
        default: act(ModelCleanupAtom())
        }
    }

    @Test(arguments: seeds)
    func theJournalRebuildsTheLiveStoreAtEveryStep(seed: UInt64) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("model-\(seed).jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, flush: .onClose, keyframeInterval: 16)
        recorder.attach(to: root.store)
        var live: [Int: Snapshot] = [root.store.committedTransactions: root.store.snapshot()]
        let store = root.store
        root.observeTransactions { live[$0.sequence] = store.snapshot() }
        // An observer that writes: each change of the tags counts on number 4.
        let writer = root.viewContext(fileID: "Model/Writer.swift", line: 1)
        writer.watch(ModelNumberAtom(id: 4))
        writer.watch(ModelMeasureAtom())
        root.observeTransactions { record in
            if record.changedValues.contains(where: { $0.atom.label == "ModelTagsAtom" }) {
                writer[ModelNumberAtom(id: 4)] += 1
            }
        }

        var generator = SplitMix(seed: seed)
        var contexts: [AtomViewContext?] = Array(repeating: nil, count: 4)
        var program: [String] = []
        for step in 0..<Self.operations {
            let slot = generator.next(contexts.count)
            let choice = generator.next(14)
            switch generator.next(13) {
            case 0:
                if contexts[slot] == nil {
                    contexts[slot] = root.viewContext(fileID: "Model/View\(slot).swift", line: UInt(10 + slot))
                }
                Self.watch(choice, true, from: contexts[slot]!)
                program.append("watch \(choice) from \(slot)")
            case 1:
                if let context = contexts[slot] {
                    Self.watch(choice, false, from: context)
                    program.append("unwatch \(choice) from \(slot)")
                }
            case 2:
                contexts[slot] = nil
                program.append("drop context \(slot)")
            case 3:
                writer[ModelNumberAtom(id: choice % 6)] = step
                program.append("set number \(choice % 6)")
            case 4:
                writer.modify(ModelListAtom()) { list in
                    list.insert(ModelItem(id: step, title: "item \(step)", done: false), at: list.isEmpty ? 0 : generator.next(list.count + 1))
                }
                program.append("insert an item")
            case 5:
                writer.modify(ModelListAtom()) { list in
                    if !list.isEmpty { list[generator.next(list.count)].done.toggle() }
                }
                program.append("toggle an item")
            case 6:
                writer.modify(ModelListAtom()) { list in
                    if !list.isEmpty { list.remove(at: generator.next(list.count)) }
                }
                program.append("remove an item")
            case 7:
                let tag = "tag\(choice)"
                writer.modify(ModelTagsAtom()) { tags in
                    if tags.contains(tag) { tags.remove(tag) } else { tags.insert(tag) }
                }
                program.append("flip \(tag)")
            case 8:
                let color = Color.allCases[choice % Color.allCases.count]
                writer.modify(ModelMapAtom()) { map in map[color] = map[color] == nil ? step : nil }
                program.append("flip \(color)")
            case 9:
                writer[ModelEchoAtom()] += 1
                program.append("echo")
            case 10:
                writer.reset(ModelNumberAtom(id: choice % 6))
                program.append("reset number \(choice % 6)")
            case 11:
                // Zero when not zero, else the other zero: often only a zero's sign changes.
                func flip(_ value: inout Double) { value = value == 0 ? -value : 0 }
                writer.modify(ModelMeasureAtom()) { measure in
                    switch choice % 3 {
                    case 0: flip(&measure.level)
                    case 1: flip(&measure.samples[0])
                    default: measure.level = Double(step) / 8
                    }
                }
                program.append("flip a zero of the measure (\(choice % 3))")
            default:
                writer[ModelNumberAtom(id: 2)] += 1
                program.append("bump number 2")
            }
            // Other tests' main-actor work runs between stretches of this one, so a test
            // waiting for an atom update is not queued behind the whole model run.
            if step % 50 == 49 {
                await Task.yield()
            }
        }
        contexts = []
        try recorder.close()
        withExtendedLifetime(writer) {}

        let journal = try JournalReader(path: path)
        #expect(journal.lastStep == root.store.committedTransactions)
        let encoder = ValueEncoder()
        var state = try journal.state(at: journal.firstStep)
        var failures = 0
        for step in journal.firstStep...journal.lastStep where failures < 3 {
            state = try journal.advance(state, to: step)
            guard let snapshot = live[step] else {
                Issue.record("seed \(seed): no live snapshot of step \(step)")
                failures += 1
                continue
            }
            var difference: String?
            if state.graphDescription() != snapshot.graphDescription() {
                difference = "graph:\n\(state.graphDescription())\nlive:\n\(snapshot.graphDescription())"
            } else if state.liveAtoms.map(\.displayName).sorted() != snapshot.atoms.map(\.description).sorted() {
                difference = "live atoms: \(state.liveAtoms.map(\.displayName).sorted()) live: \(snapshot.atoms.map(\.description).sorted())"
            }
            for atom in snapshot.atoms where difference == nil {
                let recorded = state.liveAtoms.first { $0.displayName == atom.description }
                let expected = encoder.encode(snapshot.value(of: atom) as Any, redacted: false).keyedEntry(id: recorded?.id ?? 0)
                let decoded = try JSONDecoder().decode(ValueEntry.self, from: Data(expected.utf8))
                let found = recorded.flatMap { state.values[$0.id] }
                // Numbers as written too: `0` and `-0` are equal `JSONNumber`s.
                if found != decoded || found?.v?.jsonText != decoded.v?.jsonText {
                    difference = "\(atom): \(found?.displayText ?? "nothing") live: \(decoded.displayText)"
                }
            }
            if let difference {
                failures += 1
                Issue.record("seed \(seed): the journal differs from the live store at step \(step): \(difference)\nthe program:\n\(program.joined(separator: "\n"))")
            }
        }
    }
}
