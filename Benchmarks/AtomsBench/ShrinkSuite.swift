import Atoms
import AtomsJournal
import AtomsTesting
import Foundation

/// Counts todos, but leaves out those whose text ends with "!": the value bug a shrink finds.
struct ShrinkBenchStatsAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        context.watch(BenchTodosAtom()).filter { !$0.text.hasSuffix("!") }.count
    }
}

/// A draft whose effect counts its updates: the sequence bug (nothing resets the count).
struct ShrinkBenchDraftAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }

    func effect(context: CurrentContext) -> some AtomEffect {
        UpdateEffect { context[ShrinkBenchEditsAtom()] += 1 }
    }
}

struct ShrinkBenchEditsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

struct ShrinkBenchNoiseAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Shrinking generated 1,000-write sessions: a bug that needs one value (a todo among 500,
/// added at write 700) and one that needs 7 writes through an effect, each beside the same
/// session's writes made without a replay.
@MainActor
enum ShrinkSuite {
    struct Figures {
        var valueSeconds: [Double] = []
        var valueTrials = 0
        var valueKept = 0
        var valueElements = 0
        var sequenceSeconds: [Double] = []
        var sequenceTrials = 0
        var sequenceKept = 0
        var writes: [Double] = []
        var isComplete = true
    }

    static func run(repetitions: Int, directory: URL) throws -> Figures {
        let valuePath = directory.appendingPathComponent("value-bug.jsonl").path
        let sequencePath = directory.appendingPathComponent("sequence-bug.jsonl").path
        try recordValueBug(to: valuePath)
        try recordSequenceBug(to: sequencePath)
        var figures = Figures()
        for _ in 0..<repetitions {
            figures.writes.append(InspectorSuite.seconds { playValueBug(on: AtomTestContext()) })
            var valueShrink: JournalShrink?
            figures.valueSeconds.append(try InspectorSuite.seconds {
                let replay = try JournalReplay(journal: valuePath)
                replay.drive(BenchTodosAtom())
                replay.watch(ShrinkBenchStatsAtom())
                valueShrink = try replay.shrink(until: "ShrinkBenchStatsAtom != BenchTodosAtom.count", in: AtomTestContext.init, journal: directory.appendingPathComponent("value.shrunk.jsonl").path)
            })
            var sequenceShrink: JournalShrink?
            figures.sequenceSeconds.append(try InspectorSuite.seconds {
                let replay = try JournalReplay(journal: sequencePath)
                replay.drive(ShrinkBenchDraftAtom())
                replay.drive(ShrinkBenchNoiseAtom())
                replay.watch(ShrinkBenchEditsAtom())
                sequenceShrink = try replay.shrink(until: "ShrinkBenchEditsAtom >= 7", in: AtomTestContext.init, journal: directory.appendingPathComponent("sequence.shrunk.jsonl").path)
            })
            if let valueShrink, let sequenceShrink {
                figures.valueTrials = valueShrink.trials
                figures.valueKept = valueShrink.kept.count
                figures.valueElements = valueShrink.kept.first?.writes.first.map { value in
                    (try? JSONValue.parse(Array(value.value.utf8))).map { json in
                        if case .array(let elements) = json { elements.count } else { -1 }
                    } ?? -1
                } ?? -1
                figures.sequenceTrials = sequenceShrink.trials
                figures.sequenceKept = sequenceShrink.kept.count
                figures.isComplete = figures.isComplete && valueShrink.isComplete && sequenceShrink.isComplete
            }
        }
        return figures
    }

    private static func recordValueBug(to path: String) throws {
        let context = AtomTestContext()
        let recorder = try JournalRecorder(path: path, program: "atoms-bench")
        recorder.attach(to: context.atomStore)
        playValueBug(on: context)
        try recorder.close()
    }

    /// 500 todos added, then toggles, and at write 700 one whose text ends with "!".
    private static func playValueBug(on context: AtomTestContext) {
        context.watch(ShrinkBenchStatsAtom())
        var nextID = 0
        for index in 0..<1_000 {
            if index == 700 {
                context[BenchTodosAtom()].append(BenchTodo(id: nextID, text: "Call the bank about the card!", isCompleted: false))
                nextID += 1
            } else if index < 500 {
                context[BenchTodosAtom()].append(BenchTodo(id: nextID, text: "Todo number \(nextID), written as users write them", isCompleted: false))
                nextID += 1
            } else {
                let count = context.read(BenchTodosAtom()).count
                context[BenchTodosAtom()][(index * 37) % count].isCompleted.toggle()
            }
        }
    }

    /// 1,000 writes: the draft at 10 places, noise at the others.
    private static func recordSequenceBug(to path: String) throws {
        let context = AtomTestContext()
        let recorder = try JournalRecorder(path: path, program: "atoms-bench")
        recorder.attach(to: context.atomStore)
        context.watch(ShrinkBenchEditsAtom())
        context.watch(ShrinkBenchDraftAtom())
        context.watch(ShrinkBenchNoiseAtom())
        var drafts = 0
        for index in 0..<1_000 {
            if index % 90 == 45, drafts < 10 {
                drafts += 1
                context[ShrinkBenchDraftAtom()] = "Dear Ada, draft \(drafts) of the letter"
            } else {
                context[ShrinkBenchNoiseAtom()] = index
            }
        }
        try recorder.close()
    }
}
