import Atoms
import Foundation
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// A list row's atom: one family member per item, watching the counter beside it (so it has an
/// edge while live).
struct ChurnRowAtom: ValueAtom {
    let item: Int
    var key: Int { item }
    func value(context: Context) -> String { "item \(item) at \(context.watch(CountAtom()))" }
}

/// A session that creates and releases atom-family members, recorded with the real recorder:
/// row after row is watched and the one before released, the counter ticking beside them;
/// now and then a row released long ago comes back (same identity) for one step, and row 0
/// stays watched throughout.
@MainActor
struct ChurnSession {
    /// The live atoms' display names after each step recorded (the first keyframe's included).
    private(set) var expectedLive: [Int: Set<String>] = [:]
    /// What the recorder's mirror held after each row, with the live atoms' count then.
    private(set) var mirror: [(sizes: RecorderMirrorSizes, live: Int)] = []
    /// The rows that came back after their release.
    private(set) var returned: [Int] = []

    /// Records `rows` rows into `path` (a file, or a folder when `limit` is set).
    init(rows: Int, path: String, limit: Int? = nil, keyframeInterval: Int) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, limit: limit, keyframeInterval: keyframeInterval, program: "churn-test")
        // What the recorder's thread reports after each batch: once a flush returns, the
        // report of the last transaction committed.
        let observed = Locked<RecorderObservation?>(nil)
        recorder.observer = { observation in observed.withLock { $0 = observation } }
        recorder.attach(to: root.store)
        let context = root.viewContext()
        var live: Set<String> = []
        func note() {
            expectedLive[root.store.committedTransactions] = live
        }
        note()
        context.watch(CountAtom())
        live.insert("CountAtom")
        note()
        func show(_ item: Int) {
            context.watch(ChurnRowAtom(item: item))
            live.insert("ChurnRowAtom[\(item)]")
            note()
        }
        func hide(_ item: Int) {
            context.unwatch(ChurnRowAtom(item: item))
            live.remove("ChurnRowAtom[\(item)]")
            note()
        }
        show(0)
        var comeback: Int?
        for item in 1...rows {
            show(item)
            if item > 1 { hide(item - 1) }
            if let back = comeback {
                hide(back)
                comeback = nil
            } else if item % 7 == 0, item > 20 {
                // A row released long ago, shown again for one step.
                let back = item / 3
                show(back)
                comeback = back
                returned.append(back)
            }
            context[CountAtom()] += 1
            note()
            try recorder.flush()
            if let observation = observed.withLock({ $0 }), observation.recordedThrough == root.store.committedTransactions {
                mirror.append((observation.mirror, live.count))
            }
        }
        try recorder.close()
    }
}
