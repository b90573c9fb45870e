import Atoms
import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

private struct TallyAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

private struct TallyParityAtom: ValueAtom, Hashable {
    func value(context: Context) -> Bool { context.watch(TallyAtom()).isMultiple(of: 2) }
}

/// Journals truncated, rewritten or recorded again at the same path while a command holds
/// them open: every command answers from what it read or stops with "the journal changed"
/// (exit 75), never dies by a signal, and `step`'s `reload` opens the new journal.
// One at a time: each cuts a journal under a running binary within deadlines of seconds, and two such writers at once on two cores miss them.
@Suite(.serialized)
@MainActor
struct ChangingJournalTests {
    /// Records `count` increments of a tally (and its parity) at `path`.
    private func record(_ path: String, count: Int) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 16, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Tally/Main.swift", line: 3)
        context.watch(TallyParityAtom())
        for _ in 0..<count {
            context[TallyAtom()] += 1
        }
        try recorder.close()
    }

    /// What each command that holds a journal open prints, or the error it stops with.
    private func outcomes(of journal: InspectedJournal) -> [String: Result<String, InspectorError>] {
        func run(_ body: () throws(InspectorError) -> String) -> Result<String, InspectorError> {
            do throws(InspectorError) { return .success(try body()) } catch { return .failure(error) }
        }
        let last = journal.reader.lastStep
        return [
            "show": run { () throws(InspectorError) in try ShowCommand.run(journal, at: .fromLast(0)) },
            "diff": run { () throws(InspectorError) in try DiffCommand.run(journal, from: .number(1), to: .fromLast(0)).output },
            "find": run { () throws(InspectorError) in try FindCommand.run(journal, where: "TallyAtom == \(last)").output },
            "blame": run { () throws(InspectorError) in try BlameCommand.run(journal, atom: "TallyAtom", history: true) },
            "compare": run { () throws(InspectorError) in try CompareCommand.run(journal, journal).output },
            "report": run { () throws(InspectorError) in String(decoding: try ReportCommand.run(journal, graphviz: nil).html, as: UTF8.self) },
            "log": run { () throws(InspectorError) in try LogCommand.run(journal, options: .init()) },
            "step": run { () throws(InspectorError) in
                let session = try StepSession(journal: journal)
                return ["goto \(last)", "s", "d", "blame TallyAtom", "where TallyAtom == 2"].map { session.handle($0).output }.joined(separator: "\n")
            },
        ]
    }

    @Test func aJournalTruncatedUnderItsReaderIsReportedAsChanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tally.jsonl")
        try record(path, count: 3000)
        let journal = try InspectedJournal(path: path)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        for (command, outcome) in outcomes(of: journal) where command != "step" {
            guard case .failure(let error) = outcome else {
                Issue.record("\(command) answered from a journal cut in half")
                continue
            }
            #expect(error.status == .tryAgain, "\(command): \(error)")
            #expect(error.message.contains("the journal changed while it was being read"), "\(command): \(error)")
        }
        // `step` reports it at the command that needed the lost half, keeps its place, and
        // `reload` opens what is left (a torn last line is left out).
        let session = try StepSession(journal: journal)
        let last = journal.reader.lastStep
        #expect(session.handle("goto \(last - 10)").output.hasPrefix("error: the journal changed while it was being read"))
        #expect(session.handle("goto 2900").output.hasSuffix("type reload to open it again"))
        #expect(session.position == 0)
        #expect(session.handle("reload").output.hasPrefix("reloaded \(path): it changed (recorded again or cut short), steps 0…"))
        #expect(session.handle("goto 10").output.contains("[10/"))
    }

    @Test func aJournalRecordedAgainAtItsPathIsStillReadAsItWas() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tally.jsonl")
        try record(path, count: 3000)
        let journal = try InspectedJournal(path: path)
        let before = outcomes(of: journal)
        for (command, outcome) in before {
            if case .failure(let error) = outcome { Issue.record("\(command): \(error)") }
        }
        // A new recording at the same path replaces the file: the open one is read whole.
        try record(path, count: 10)
        let after = outcomes(of: journal)
        for (command, outcome) in after {
            // The report differs only by the nonce it makes for each page.
            if command == "report" {
                #expect(try outcome.get().count == before[command]?.get().count)
            } else {
                #expect(try outcome.get() == before[command]?.get(), "\(command)")
            }
        }
        #expect(try InspectedJournal(path: path).reader.lastStep < 20)
    }

    @Test func aJournalWrittenOverInPlaceIsReportedAsChanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tally.jsonl")
        let other = directory.path("other.jsonl")
        try record(path, count: 3000)
        try record(other, count: 10)
        let journal = try InspectedJournal(path: path)
        let session = try StepSession(journal: journal)
        // As `cp other.jsonl tally.jsonl` does: the same file, truncated and written again.
        let replacement = try Data(contentsOf: URL(fileURLWithPath: other))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: replacement)
        try handle.close()
        for (command, outcome) in outcomes(of: journal) where command != "step" {
            guard case .failure(let error) = outcome else {
                Issue.record("\(command) answered from a journal written over")
                continue
            }
            #expect(error.status == .tryAgain, "\(command): \(error)")
        }
        // `reload` opens the new journal.
        #expect(session.handle("goto 2500").output.hasPrefix("error: the journal changed while it was being read"))
        let newLast = try InspectedJournal(path: other).reader.lastStep
        #expect(session.handle("reload").output.hasPrefix("reloaded \(path): it changed (recorded again or cut short), steps 0…\(newLast)"))
        #expect(session.handle("goto 5").output.contains("[5/\(newLast)]"))
    }

    @Test func aFollowerStartsOverWhenTheJournalIsCutOrRecordedAgain() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tally.jsonl")
        try record(path, count: 50)
        let follower = JournalFollower(path: path)
        let transactions = { (events: [JournalFollower.Event]) in
            events.filter { if case .transaction = $0 { true } else { false } }.count
        }
        let first = try follower.poll()
        #expect(transactions(first) == (try JournalReader(path: path).lastStep))
        #expect(first.last == .ended)
        // A journal still being recorded (no end line yet), cut in half: read again from the start.
        let whole = try String(contentsOfFile: path, encoding: .utf8)
        let live = whole.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        try live.write(toFile: path, atomically: false, encoding: .utf8)
        let follower2 = JournalFollower(path: path)
        #expect(transactions(try follower2.poll()) == transactions(first))
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let cut = try follower2.poll()
        #expect(cut.first == .restarted)
        #expect(transactions(cut) > 0 && transactions(cut) < transactions(first))
        // Recorded again at the same path: read again from the new journal's start.
        try record(path, count: 5)
        let again = try follower2.poll()
        #expect(again.first == .restarted)
        #expect(transactions(again) == (try JournalReader(path: path).lastStep))
        #expect(again.last == .ended)
    }

    /// Through the binary: each command of a `step` session that needs what was cut from the
    /// journal says the journal changed; the session answers from the state it holds.
    @Test func everyCommandNeedingACutPartSaysTheJournalChanged() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tally.jsonl")
        try record(path, count: 3000)
        let step = try LiveJournalTests.Child("atoms-inspect", ["step", path])
        step.send("goto 10\n")
        #expect(await step.waitForOutput(timeout: 20) { $0.contains("[10/") }, "\(step.output)")
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 3)) == 0)
        step.send("goto 2900\nwhere TallyAtom == 2999\nblame TallyAtom\ns\nq\n")
        step.closeInput()
        #expect(await step.wait(timeout: 20) == 0, "\(step.output)")
        let changed = step.output.filter { $0.hasPrefix("error: the journal changed while it was being read") }
        #expect(changed.count >= 2, "\(step.output)")
        // `s` answers from the state the session holds (step 10).
        #expect(step.output.contains { $0.hasPrefix("TallyAtom = ") }, "\(step.output)")
    }

    /// Through the binary: `step` keeps its session when the journal is cut under it, and
    /// `show` run again and again while the file is cut and rewritten never dies by a signal.
    @Test func theBinaryNeverDiesWhenTheJournalChanges() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tally.jsonl")
        let copy = directory.path("copy.jsonl")
        try record(path, count: 3000)
        try FileManager.default.copyItem(atPath: path, toPath: copy)

        let step = try LiveJournalTests.Child("atoms-inspect", ["step", path])
        step.send("goto 10\n")
        _ = await step.waitForOutput(timeout: 20) { $0.contains("[10/") }
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        step.send("goto 2900\ns\nq\n")
        step.closeInput()
        #expect(await step.wait(timeout: 20) == 0)
        // The command that needed the lost half says so; the session goes on, answering from
        // what it read (`s` at step 10), to `q`.
        #expect(step.output.filter { $0.hasPrefix("error: the journal changed while it was being read") }.count == 1, "\(step.output)")
        #expect(step.output.contains { $0.hasPrefix("TallyAtom = ") }, "\(step.output)")

        // A writer cuts the journal and writes it back, over and over, while `show` reads it.
        let original = try Data(contentsOf: URL(fileURLWithPath: copy))
        let stop = StopFlag()
        let writer = Task.detached {
            var round = 0
            while !stop.isSet {
                _ = truncate(path, off_t(round % 3 == 0 ? 0 : original.count / (2 + round % 5)))
                try? await Task.sleep(for: .microseconds(200))
                if let handle = FileHandle(forWritingAtPath: path) {
                    try? handle.truncate(atOffset: 0)
                    try? handle.write(contentsOf: original)
                    try? handle.close()
                }
                round += 1
            }
        }
        defer { stop.set() }
        var statuses: Set<Int32> = []
        for round in 0..<30 {
            let arguments = [["show", path, "--at", "last"], ["log", path], ["stats", path]][round % 3]
            let run = try await BuiltProducts.run("atoms-inspect", arguments)
            statuses.insert(run.status)
            // 0: read whole; 65/66: caught empty or half written at opening; 75: changed while read.
            #expect([0, 65, 66, 75].contains(run.status), "\(arguments[0]): status \(run.status): \(run.stderr)")
            #expect(!run.stderr.contains("Bus error") && !run.stderr.contains("Fatal error"))
        }
        stop.set()
        await writer.value

        // `log --follow` on a journal cut and then recorded again ends at the new end line.
        // (A journal still being recorded: without its end line.)
        try record(path, count: 30)
        let whole = try String(contentsOfFile: path, encoding: .utf8)
        try (whole.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let follow = try LiveJournalTests.Child("atoms-inspect", ["log", "--follow", path])
        _ = await follow.waitForOutput(beyond: 29, timeout: 20)
        let newSize = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(newSize / 3)) == 0)
        try await Task.sleep(for: .milliseconds(100))
        try record(path, count: 7)
        #expect(follow.isRunning || follow.output.count > 30, "log --follow waited for more")
        #expect(await follow.wait(timeout: 20) == 0, "log --follow ends at the new journal's end line")
        #expect(follow.output.count > 30, "the new journal's transactions were printed too")
    }
}

/// A flag one thread sets and another reads.
private final class StopFlag: Sendable {
    private let flag = Locked(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
