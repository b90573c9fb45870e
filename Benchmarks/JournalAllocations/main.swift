import Atoms
import AtomsJournal
import Foundation
import MallocInterposerSwift

// journal-allocations: allocations per transaction, on the app's (main) thread and on the
// others (the recorder's and the file writer's), journal off and on, once the buffers have
// grown. Counted by malloc-interposer, which must be preloaded:
//
//   LD_PRELOAD=.build/debug/libMallocInterposerSwift.so .build/debug/journal-allocations [N]
//
// Prints one JSON object: {"small":{"off":{"app":…,"others":…},"on":{…}},"derived":{…},
// "recordable":{…},"recordable-lines":{…}}: `recordable` is `small` with the value
// `@JournalRecordable`, and `recordable-lines` the same with keyframes held off (the
// transaction lines alone; .ci/allocation-check.sh requires none on the recorder's threads).
// `journal-allocations N recordable` runs that session alone, journal on (for callgrind).

/// A small Codable state, as most app state is.
struct Settings: Codable, Equatable {
    var volume: Int
    var muted: Bool
    var name: String
}

struct SettingsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Settings { Settings(volume: 0, muted: false, name: "default") }
}

struct RecordableSettingsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> RecordableSettings { RecordableSettings(volume: 0, muted: false, name: "default") }
}

/// Derived from the settings: each write changes two atoms.
struct LoudnessAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(SettingsAtom()).volume * 2 }
}

/// The main thread, whose allocations the hook counts apart.
nonisolated(unsafe) var mainThread = pthread_self()
/// Allocations on the main thread while counting; written by the main thread only.
nonisolated(unsafe) var mainThreadAllocations = 0

let countMainThread: MallocInterposerSwift.AllocationHook = { _ in
    if pthread_equal(pthread_self(), mainThread) != 0 {
        mainThreadAllocations += 1
    }
}

struct Counts: Encodable {
    var app: Double
    var others: Double
}

@MainActor
func session(journal path: String?, derived: Bool, recordable: Bool = false, keyframes: Bool = true, transactions: Int) throws -> Counts {
    let root = AtomRoot()
    let recorder = try path.map {
        try JournalRecorder(path: $0, keyframeInterval: keyframes ? JournalFormat.defaultKeyframeInterval : Int.max)
    }
    recorder?.attach(to: root.store)
    let context = root.viewContext()
    context.watch(SettingsAtom())
    context.watch(RecordableSettingsAtom())
    if derived {
        context.watch(LoudnessAtom())
    }
    // One write, to the plain or the recordable settings.
    func write() {
        if recordable {
            context[RecordableSettingsAtom()].volume += 1
        } else {
            context[SettingsAtom()].volume += 1
        }
    }
    // Warm up: every buffer on both sides grows to its steady size.
    for _ in 0..<20_000 {
        write()
    }
    try recorder?.flush()
    MallocInterposerSwift.reset()
    mainThreadAllocations = 0
    MallocInterposerSwift.setAllocationHook(countMainThread)
    MallocInterposerSwift.hook()
    for _ in 0..<transactions {
        write()
    }
    // Counted until the recorder has written every transaction.
    try recorder?.flush()
    MallocInterposerSwift.unhook()
    MallocInterposerSwift.setAllocationHook(nil)
    let all = MallocInterposerSwift.getStatistics().mallocCount
    let app = mainThreadAllocations
    try recorder?.close()
    return Counts(app: Double(app) / Double(transactions), others: Double(all - app) / Double(transactions))
}

MainActor.assumeIsolated {
    let transactions = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 50_000
    MallocInterposerSwift.initialize()
    mainThread = pthread_self()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-allocations-\(UUID().uuidString)")
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if CommandLine.arguments.dropFirst(2).first == "recordable" {
            _ = try session(journal: directory.appendingPathComponent("recordable.jsonl").path, derived: false, recordable: true, transactions: transactions)
            return
        }
        // Keyframes held off: what each transaction line costs.
        let lines = try session(journal: directory.appendingPathComponent("lines.jsonl").path, derived: false, recordable: true, keyframes: false, transactions: transactions)
        var report: [String: [String: Counts]] = [:]
        for (name, derived, recordable) in [("small", false, false), ("derived", true, false), ("recordable", false, true)] {
            report[name] = [
                "off": try session(journal: nil, derived: derived, recordable: recordable, transactions: transactions),
                "on": try session(journal: directory.appendingPathComponent("\(name).jsonl").path, derived: derived, recordable: recordable, transactions: transactions),
            ]
        }
        report["recordable-lines"] = ["on": lines]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } catch {
        FileHandle.standardError.write(Data("journal-allocations: \(error)\n".utf8))
        exit(1)
    }
}
