import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

struct ReleasedRowTickAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Twice the tick: written with it once watched.
struct ReleasedRowTickDoubledAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(ReleasedRowTickAtom()) * 2 }
}

/// A list row: one family member per item.
struct ReleasedRowAtom: ValueAtom {
    let item: Int
    var key: Int { item }
    func value(context: Context) -> String { "row \(item)" }
}

/// Keyframes declare what is live: an atom released long before the last keyframe, or shown
/// again under a new number, is still found by name by `log --atom`, `blame`, `blame --history`
/// and `find`, across all its numbers.
@MainActor
struct ReleasedAtomTests {
    /// Rows 1…90 shown one after another (each hidden when the next shows), row 5 shown again
    /// beside row 50, a counter ticking; returns the journal and the steps where row 5 is live.
    private func record(in directory: TemporaryDirectory, keyframeInterval: Int = 4) throws -> (InspectedJournal, live: [Int]) {
        let path = directory.path("rows-\(keyframeInterval).jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: keyframeInterval, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(ReleasedRowTickAtom())
        var live: [Int] = []
        var rowFiveShown = false
        func noteStep() {
            if rowFiveShown { live.append(root.store.committedTransactions) }
        }
        // Enough rows after row 5's second life that keyframes (due by bytes as well as by
        // transactions) come after it.
        for item in 1...90 {
            context.watch(ReleasedRowAtom(item: item))
            rowFiveShown = rowFiveShown || item == 5
            noteStep()
            if item > 1 {
                context.unwatch(ReleasedRowAtom(item: item - 1))
                rowFiveShown = rowFiveShown && item - 1 != 5
                noteStep()
            }
            if item == 50 {
                context.watch(ReleasedRowAtom(item: 5))
                rowFiveShown = true
                noteStep()
            }
            if item == 52 {
                context.unwatch(ReleasedRowAtom(item: 5))
                rowFiveShown = false
            }
            context[ReleasedRowTickAtom()] += 1
            noteStep()
        }
        try recorder.close()
        return (try InspectedJournal(path: path), live)
    }

    @Test func logAndBlameFindARowReleasedLongAgoAcrossItsNumbers() throws {
        let directory = try TemporaryDirectory()
        let (journal, _) = try record(in: directory)
        let last = try journal.state(at: journal.reader.lastStep, decodingValuesOf: [])
        #expect(!last.declarations.values.contains { $0.displayName == "ReleasedRowAtom[5]" }, "the last keyframe does not declare row 5")

        let entries = try LogCommand.entries(journal, options: .init(atom: "ReleasedRowAtom[5]"))
        #expect(entries.filter { $0.created == ["ReleasedRowAtom[5]"] }.count == 2, "both lives")
        #expect(entries.filter { $0.released == ["ReleasedRowAtom[5]"] }.count == 2)
        #expect(throws: InspectorError.self) { try LogCommand.entries(journal, options: .init(atom: "ReleasedRowAtom[99]")) }

        let blame = try BlameCommand.blame(journal, atom: "ReleasedRowAtom[5]")
        #expect(blame.count == 1)
        #expect(blame.first?.change?.released == true)
        #expect(blame.first?.change?.step == entries.last?.step)

        let history = try BlameCommand.blame(journal, atom: "ReleasedRowAtom[5]", history: true)
        #expect(history.count == 1, "one atom, whatever its numbers")
        let changes = history.first?.history ?? []
        #expect(changes.filter(\.released).count == 2)
        #expect(changes.map(\.step) == entries.map(\.step).reversed(), "every change of both lives, newest first")

        let older = try BlameCommand.blame(journal, atom: "ReleasedRowAtom[3]")
        #expect(older.first?.change?.released == true, "a row released long before the last keyframe")
    }

    @Test func findFollowsARowAcrossItsNumbers() throws {
        let directory = try TemporaryDirectory()
        let (journal, live) = try record(in: directory)
        let found = try FindCommand.find(journal, where: #"ReleasedRowAtom[5] == "row 5""#, mode: .all).steps.map(\.step)
        #expect(found == live)
        let becomes = try FindCommand.find(journal, where: #"ReleasedRowAtom[5] == "row 5""#).steps.map(\.step)
        #expect(becomes.count == 2, "true in each life: \(becomes)")
    }

    /// A session that ticks `count` times, recorded to `path` (a bounded folder with
    /// `limit`); the doubled tick is watched from tick `watchingDoubledFrom` on.
    private func recordTicks(_ count: Int, to path: String, limit: Int? = nil, keyframeInterval: Int = JournalFormat.defaultKeyframeInterval, watchingDoubledFrom: Int? = nil) throws -> InspectedJournal {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, limit: limit, keyframeInterval: keyframeInterval, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(ReleasedRowTickAtom())
        for tick in 1...count {
            if tick == watchingDoubledFrom { context.watch(ReleasedRowTickDoubledAtom()) }
            context[ReleasedRowTickAtom()] += 1
        }
        try recorder.close()
        return try InspectedJournal(path: path)
    }

    /// `find` in two halves (a thread each) finds what one pass finds, for an atom that comes
    /// back under a new number and for a counter, in every mode.
    @Test func findInHalvesFindsWhatOnePassFinds() throws {
        let directory = try TemporaryDirectory()
        let (journal, _) = try record(in: directory)
        let expressions = [#"ReleasedRowAtom[5] == "row 5""#, "ReleasedRowTickAtom >= 30", "ReleasedRowTickAtom == 7", #"ReleasedRowAtom[55] == "row 55""#]
        for expression in expressions {
            for mode in FindCommand.Mode.allCases {
                let halves = try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: 1)
                let onePass = try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: .max)
                #expect(halves == onePass, "\(expression), \(mode)")
            }
        }
        let all = try FindCommand.find(journal, where: "ReleasedRowTickAtom >= 0", mode: .all, halvesFrom: 1).steps.map(\.step)
        #expect(all.first == journal.reader.firstStep + 1 || all.first == journal.reader.firstStep)
        #expect(all.last == journal.reader.lastStep, "both halves searched")
    }

    /// With a progress display (a terminal), the halves still run: the first half tells
    /// where the whole search stands, over the whole journal's steps (a search tells every
    /// 16,384 steps: the session is long enough for the first half to), and a progress that
    /// stops the search leaves the first half's matches so far.
    @Test func findInHalvesTellsProgressOverTheWholeJournal() throws {
        let directory = try TemporaryDirectory()
        let journal = try recordTicks(40_000, to: directory.path("ticks.jsonl"))
        let whole = journal.reader.firstStep...journal.reader.lastStep
        let middle = whole.lowerBound + (whole.upperBound - whole.lowerBound) / 2
        var told: [(step: Int, steps: ClosedRange<Int>)] = []
        let found = try FindCommand.find(journal, where: "ReleasedRowTickAtom >= 39000 || ReleasedRowTickAtom == 7", mode: .all, progress: { step, steps in
            told.append((step, steps))
            return true
        }, halvesFrom: 1)
        #expect(found == (try FindCommand.find(journal, where: "ReleasedRowTickAtom >= 39000 || ReleasedRowTickAtom == 7", mode: .all, halvesFrom: .max)))
        #expect(found.steps.count == 1_002)
        #expect(!told.isEmpty)
        #expect(told.allSatisfy { $0.steps == whole && whole.contains($0.step) }, "\(told.map(\.step))")
        let stopped = try FindCommand.find(journal, where: "ReleasedRowTickAtom >= 1", mode: .all, progress: { _, _ in false }, halvesFrom: 1)
        #expect(!stopped.steps.isEmpty)
        #expect(stopped.steps.allSatisfy { $0.step <= middle }, "only the first half's matches")
    }

    /// The second half reads the journal opened again, with a reader of its own; a file that
    /// changed since it was first opened is not opened again (one pass reads it), nor is a
    /// file that is gone.
    @Test func aJournalOpenedAgainHasAReaderOfItsOwnAndOnlyWhenUnchanged() throws {
        let directory = try TemporaryDirectory()
        let (journal, _) = try record(in: directory)
        let path = journal.path
        let again = try #require(journal.openedAgain())
        #expect(again.reader !== journal.reader)
        #expect(again.reader.firstStep == journal.reader.firstStep && again.reader.lastStep == journal.reader.lastStep)

        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        #expect(journal.openedAgain() == nil, "changed since it was opened")
        let changed = try InspectedJournal(path: path)
        #expect(changed.openedAgain() != nil)
        try FileManager.default.removeItem(atPath: path)
        #expect(changed.openedAgain() == nil, "gone")
        // The search still answers, in one pass, from the reader it has.
        let found = try FindCommand.find(changed, where: "ReleasedRowTickAtom >= 30", mode: .all, halvesFrom: 1)
        #expect(found == (try FindCommand.find(journal, where: "ReleasedRowTickAtom >= 30", mode: .all, halvesFrom: .max)))
        #expect(!found.steps.isEmpty)
    }

    /// A match names every atom its step wrote, one declared by a step that did not match
    /// included (it was `#3` in one pass, and named in a half that started after it), in one
    /// pass and in halves alike.
    @Test func findNamesAnAtomDeclaredBetweenMatches() throws {
        let directory = try TemporaryDirectory()
        let journal = try recordTicks(30, to: directory.path("declared.jsonl"), keyframeInterval: 4, watchingDoubledFrom: 10)
        for halvesFrom in [1, Int.max] {
            let found = try FindCommand.find(journal, where: "ReleasedRowTickAtom == 5 || ReleasedRowTickAtom == 20", halvesFrom: halvesFrom)
            #expect(found.steps.map(\.changed) == [["ReleasedRowTickAtom"], ["ReleasedRowTickAtom", "ReleasedRowTickDoubledAtom"]], "halves from \(halvesFrom)")
        }
    }

    /// A bounded journal (a folder of segments) is opened again and searched in halves, with
    /// one pass's answer.
    @Test func findInHalvesSearchesAFolderOfSegments() throws {
        let directory = try TemporaryDirectory()
        let journal = try recordTicks(2_000, to: directory.path("bounded"), limit: 16 << 10, keyframeInterval: 16)
        #expect(journal.reader.segmentCount > 1)
        #expect(journal.openedAgain() != nil, "a folder is opened again")
        let tick = journal.reader.lastStep - 2
        for expression in ["ReleasedRowTickAtom >= \(tick - 300)", "ReleasedRowTickAtom == \(tick)"] {
            for mode in FindCommand.Mode.allCases {
                let halves = try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: 1)
                #expect(halves == (try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: .max)), "\(expression), \(mode)")
                #expect(!halves.steps.isEmpty)
            }
        }
    }

    @Test func compareMatchesRecordingsThatNumberARowDifferently() throws {
        let directory = try TemporaryDirectory()
        let (often, _) = try record(in: directory)
        // No keyframe after the first: row 5 keeps its number when it comes back.
        let (once, _) = try record(in: directory, keyframeInterval: 100_000)
        let numbers = { (journal: InspectedJournal) throws -> Set<Int> in
            Set(try journal.declarations(through: journal.reader.lastStep).values.filter { $0.displayName == "ReleasedRowAtom[5]" }.map(\.id))
        }
        #expect(try numbers(often).count == 2 && numbers(once).count == 1)
        let comparison = try CompareCommand.compare(often, once)
        #expect(!comparison.diverges, "\(comparison.differences)")
        #expect(comparison.matchingTransactions == often.reader.transactionCount)
    }

    @Test func diffSeesOneAtomAcrossItsNumbers() throws {
        let directory = try TemporaryDirectory()
        let (journal, live) = try record(in: directory)
        // The first step of each life.
        let starts = live.enumerated().filter { $0.offset == 0 || live[$0.offset - 1] != $0.element - 1 }.map(\.element)
        #expect(starts.count == 2)
        let name = "ReleasedRowAtom[5]"
        for atom in [nil, name] {
            let across = try DiffCommand.difference(journal, from: .number(starts[0]), to: .number(starts[1]), atom: atom)
            #expect(!across.created.contains(name) && !across.released.contains(name) && !across.changed.contains { $0.atom == name }, "\(across)")
            let gone = try DiffCommand.difference(journal, from: .number(starts[0]), to: .number(starts[1] - 1), atom: atom)
            #expect(gone.released.contains(name), "\(gone)")
            let back = try DiffCommand.difference(journal, from: .number(starts[1] - 1), to: .number(starts[1]), atom: atom)
            #expect(back.created == [name], "\(back)")
        }
    }

    @Test func statsNamesRowsReleasedBeforeTheLastKeyframe() throws {
        let directory = try TemporaryDirectory()
        let (journal, _) = try record(in: directory)
        let stats = try StatsCommand.stats(journal)
        #expect(!stats.mostChanged.contains { $0.atom.hasPrefix("#") }, "\(stats.mostChanged)")
        // The counter and 90 rows: row 5, back under a new number, is one atom.
        #expect(stats.atoms == 91)
        #expect(stats.mostChanged.map(\.atom).count == Set(stats.mostChanged.map(\.atom)).count, "each atom once: \(stats.mostChanged)")
    }
}
