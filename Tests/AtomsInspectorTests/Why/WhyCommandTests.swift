import Atoms
import AtomsJournal
import AtomsJournalReader
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// blame, find and compare: on the shipped journals, on recorded sessions, and in `step`.
@MainActor
struct WhyCommandTests {
    // The longest readers' tests are static and nonisolated, so they run off the main actor,
    // which the recording tests and the atoms' own tests need.
    nonisolated private static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    }

    nonisolated private static func shipped(_ sample: String) throws -> InspectedJournal {
        try InspectedJournal(path: Self.repository.appendingPathComponent("samples/journals/\(sample).jsonl").path)
    }

    /// `sample_todo/main.swift:N` for the line of the todo sample that holds `statement`.
    private func todoLine(of statement: String) throws -> String {
        let source = try String(contentsOf: Self.repository.appendingPathComponent("samples/Todo/main.swift"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(source.firstIndex { $0.contains(statement) }, "\(statement) is in the sample")
        return "sample_todo/main.swift:\(index + 1)"
    }

    private func value(_ journal: InspectedJournal, _ atom: String, at step: Int) throws -> JSONValue? {
        let state = try journal.state(at: step)
        return state.liveAtoms.first { $0.displayName == atom }.flatMap { state.values[$0.id]?.v }
    }

    // MARK: blame

    @Test func blameOfADerivedAtomNamesTheOriginWriteAndThePathThatCarriedIt() throws {
        let journal = try Self.shipped("todo")
        let toggles = try LogCommand.entries(journal, options: .init()).filter { $0.at == (try? todoLine(of: "isCompleted.toggle()")) }
        let toggle = try #require(toggles.last, "the session toggles a todo")
        let blame = try #require(BlameCommand.blame(journal, atom: "StatsAtom", at: .number(toggle.step)).first)
        let change = try #require(blame.change)
        #expect(change.step == toggle.step)
        #expect(change.cause == "set")
        #expect(change.at == (try todoLine(of: "isCompleted.toggle()")))
        #expect(change.origin == "TodosAtom")
        #expect(change.path == ["TodosAtom", "StatsAtom"])
        #expect(change.value == (try value(journal, "StatsAtom", at: toggle.step)))

        let text = try BlameCommand.run(journal, atom: "StatsAtom", at: .number(toggle.step))
        #expect(text.hasPrefix("StatsAtom at step \(toggle.step): changed at step \(toggle.step) by set @ \(try todoLine(of: "isCompleted.toggle()"))  via TodosAtom → StatsAtom"))
    }

    /// `blame` reads back from the step in blocks that double; at every step of the todo
    /// session (several blocks long) it names, for every atom, the change its history (one
    /// search forward from the start) names last.
    @Test nonisolated static func blameAgreesWithTheNewestChangeOfItsHistoryAtEveryStep() throws {
        let journal = try Self.shipped("todo")
        #expect(journal.reader.lastStep > 4 * 64, "the blocks of 64, 128 and more steps are all read")
        for step in (journal.reader.firstStep + 1)...journal.reader.lastStep {
            let blames = try BlameCommand.blame(journal, atom: "*", at: .number(step))
            let histories = try BlameCommand.blame(journal, atom: "*", at: .number(step), history: true)
            #expect(blames.map(\.atom) == histories.map(\.atom), "step \(step)")
            for (blame, history) in zip(blames, histories) {
                #expect(blame.change == history.history?.first, "\(blame.atom) at step \(step)")
            }
        }
    }

    /// `find` in two halves gives one pass's answer on the shipped journals, and on a damaged
    /// one the same error or matches (the first half's first: it comes first in one pass).
    @Test nonisolated static func findInHalvesAnswersAsOnePass() throws {
        let cases: [(journal: InspectedJournal, expressions: [String])] = [
            (try Self.shipped("todo"), [#"StatsAtom.total >= 5 && FilterAtom == "all""#, #"FilterAtom == "completed""#, "StatsAtom.totalCompleted > 1"]),
            (try Self.shipped("counter"), ["CounterAtom == 3", "CounterAtom > 1"]),
            (try InspectedJournal(path: Self.repository.appendingPathComponent("Fuzz/regressions/journal-summary/declaration-label-not-utf8-5a493d58339c47ea.jsonl").path), [#"FilterAtom == "completed""#]),
        ]
        for (journal, expressions) in cases {
            for expression in expressions {
                for mode in FindCommand.Mode.allCases {
                    let halves = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: 1) }
                    let onePass = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: .max) }
                    #expect(halves == onePass, "\(journal.path): \(expression), \(mode)")
                }
            }
        }
    }

    /// On journals that are not damaged, the halves join (``ScanEnds/isJoined(to:after:)``):
    /// the second starts at the line the first read on to, from the values the first ended
    /// with, so no search is done again in one pass. A middle at every step of the todo
    /// journal, atoms that come and go included.
    @Test nonisolated static func theHalvesOfAJournalThatIsNotDamagedJoin() throws {
        let cases: [(journal: InspectedJournal, expression: String)] = [
            (try Self.shipped("todo"), "StatsAtom.total >= 5"),
            (try Self.shipped("todo"), #"FilterAtom == "completed""#),
            (try Self.shipped("counter"), "CounterAtom > 1"),
        ]
        for (opened, expression) in cases {
            let bound = try FindCommand.bind(expression, in: opened)
            let (first, last) = (opened.reader.firstStep, opened.reader.lastStep)
            for middle in (first + 1)..<(last - 1) {
                // Each half with a reader of its own, as `find` opens them.
                let journal = try InspectedJournal(path: opened.path)
                let again = try #require(journal.openedAgain())
                let (earlier, later) = (ScanEnds(), ScanEnds())
                try FindCommand.forEachMatch(journal, bound, mode: .all, steps: first...middle, ends: earlier) { _ in }
                try FindCommand.forEachMatch(again, bound, mode: .all, steps: (middle + 1)...last, ends: later) { _ in }
                #expect(earlier.isJoined(to: later, after: middle), "\(journal.path): \(expression), middle \(middle)")
                // The locations known at the join are compared, and agree.
                let ended = try #require(earlier.endLocations)
                #expect(!ended.isEmpty && ended == later.startLocations, "middle \(middle)")
            }
        }
    }

    /// A damaged line before an atom's last change is not read: `blame` answers, where reading
    /// every line (`stats`) names it.
    @Test func blameReadsNoLineBeforeTheChangeItFinds() throws {
        let path = Self.repository.appendingPathComponent("Fuzz/regressions/journal-summary/declaration-label-not-utf8-5a493d58339c47ea.jsonl").path
        let journal = try InspectedJournal(path: path)
        #expect(throws: JournalError.self) { try journal.reader.summary() }
        let blame = try #require(BlameCommand.blame(journal, atom: "FilterAtom").first)
        #expect(blame.change?.step == journal.reader.lastStep)
        #expect(blame.change?.cause == "set")
    }

    @Test func blameSkipsStepsThatDidNotChangeTheAtom() throws {
        let journal = try Self.shipped("todo")
        // A filter change after the last change of TodosAtom: TodosAtom's blame stays there.
        let entries = try LogCommand.entries(journal, options: .init())
        let filter = try #require(entries.last { $0.changed == ["FilterAtom", "FilteredTodosAtom"] })
        let lastTodos = try #require(entries.last { $0.step < filter.step && $0.changed.contains("TodosAtom") })
        let blame = try #require(BlameCommand.blame(journal, atom: "TodosAtom", at: .number(filter.step)).first)
        #expect(blame.change?.step == lastTodos.step)
    }

    /// FilteredTodosAtom is often written an equal value (`[id,"="]`): those writes are no change.
    @Test(arguments: ["StatsAtom", "FilteredTodosAtom"])
    func historyListsEveryChangeNewestFirstAndNothingElse(atom: String) throws {
        let journal = try Self.shipped("todo")
        let blame = try #require(BlameCommand.blame(journal, atom: atom, at: .number(120), history: true).first)
        let history = try #require(blame.history)
        #expect(history.map(\.step) == history.map(\.step).sorted(by: >))
        // Every step where the value differs from the step before, and only those.
        var changed: [Int] = []
        var previous: JSONValue?
        for step in journal.reader.firstStep...120 {
            let current = try value(journal, atom, at: step)
            if current != previous { changed.append(step) }
            previous = current
        }
        #expect(history.map(\.step).reversed() == changed)
        #expect(history.allSatisfy { $0.at?.hasPrefix("sample_todo/main.swift:") == true })
        #expect(blame.change == history.first)
        // The last change found walking back over envelopes is the history's newest.
        #expect(try BlameCommand.blame(journal, atom: atom, at: .number(120)).first?.change == history.first)
    }

    @Test func aGlobBlamesEveryMatchingAtomAndFamilyMembersAreNamedWithTheirKey() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let blames = try BlameCommand.blame(journal, atom: "DraftAtom*")
        #expect(blames.map(\.atom) == ["DraftAtom[1]", "DraftAtom[2]"])
        #expect(blames[0].change?.cause == "initialize")
        #expect(blames[1].change.map { "\($0.step) \($0.cause) \($0.at ?? "")" } == "9 set AtomsInspectorTests/RecordedSessions.swift:56")
        #expect(try BlameCommand.blame(journal, atom: "DraftAtom[2]", at: .number(8)).first?.change?.step == 8)
        #expect(throws: InspectorError.self) { try BlameCommand.blame(journal, atom: "NoSuchAtom") }
        // Before DraftAtom[2] is declared, it is unknown.
        #expect(throws: InspectorError.self) { try BlameCommand.blame(journal, atom: "DraftAtom[2]", at: .number(7)) }
    }

    // MARK: find

    @Test func findAgreesWithShowAtTheFoundStepAndTheStepBefore() throws {
        let journal = try Self.shipped("todo")
        let result = try FindCommand.find(journal, where: "StatsAtom.total >= 5 && FilterAtom == \"all\"")
        #expect(!result.steps.isEmpty)
        func holds(_ step: Int) throws -> Bool {
            let show = try ShowCommand.run(journal, at: .number(step), json: true)
            let atoms = try JSONDecoder().decode(ShownState.self, from: Data(show.utf8)).atoms
            let total = atoms.first { $0.atom == "StatsAtom" }?.value.flatMap { value -> Int? in
                guard case .object(let members) = value, case .number(let total)? = members["total"] else { return nil }
                return total.int64.map(Int.init)
            }
            let filter = atoms.first { $0.atom == "FilterAtom" }?.value
            return (total ?? 0) >= 5 && filter == .string("all")
        }
        for match in result.steps {
            #expect(try holds(match.step), "holds at \(match.step)")
            #expect(try !holds(match.step - 1), "does not hold at \(match.step - 1)")
            #expect(match.values["FilterAtom"] == .string("all"))
        }
        let first = try FindCommand.find(journal, where: "StatsAtom.total >= 5 && FilterAtom == \"all\"", mode: .first)
        #expect(first.steps.map(\.step) == [result.steps[0].step])
    }

    @Test func findOnTheShippedJournalsFindsTheStepsShowConfirms() throws {
        let counter = try Self.shipped("counter")
        let names = try counter.state(at: counter.reader.lastStep, decodingValuesOf: []).liveAtoms.map(\.label)
        let atom = try #require(names.first { $0.contains("Count") })
        let matches = try FindCommand.find(counter, where: "\(atom) == 3", mode: .all).steps.map(\.step)
        let expected = try (counter.reader.firstStep...counter.reader.lastStep).filter { try value(counter, atom, at: $0) == .number(3) }
        #expect(matches == expected)
        #expect(!matches.isEmpty)
    }

    @Test func findWithNoMatchReportsItAndAMalformedExpressionIsAUsageError() throws {
        let journal = try Self.shipped("todo")
        let none = try FindCommand.run(journal, where: "StatsAtom.total > 1000")
        #expect(!none.found)
        #expect(none.output.contains("no step of 0…\(journal.reader.lastStep) where StatsAtom.total > 1000 becomes true"))
        #expect {
            try FindCommand.find(journal, where: "StatsAtom.total >> 3")
        } throws: { ($0 as? InspectorError)?.status == .usage }
        #expect {
            try FindCommand.find(journal, where: "StatAtom.total > 3")
        } throws: { ($0 as? InspectorError)?.message.contains("no atom in the journal is named 'StatAtom'") == true }
    }

    // MARK: compare

    @Test(arguments: ["counter", "todo", "numpad", "movies"])
    func aJournalComparedWithItselfMatches(sample: String) throws {
        let journal = try Self.shipped(sample)
        let comparison = try CompareCommand.compare(journal, journal)
        #expect(!comparison.diverges)
        #expect(comparison.matchingTransactions == journal.reader.transactionCount)
    }

    @Test func aSessionThatDiffersInOneCommandDivergesAtThatCommandsStep() async throws {
        let directory = try TemporaryDirectory()
        let script = try String(contentsOf: Self.repository.appendingPathComponent("samples/journals/todo.commands"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0 != "state" }
        let changedAt = 24
        var other = script
        other[changedAt] = "toggle 4"
        #expect(other[changedAt] != script[changedAt])
        func record(_ commands: [String], _ name: String) async throws -> InspectedJournal {
            let path = directory.path(name)
            let run = try await BuiltProducts.run("sample-todo", ["--journal", path], stdin: commands.joined(separator: "\n") + "\n")
            #expect(run.status == 0)
            return try InspectedJournal(path: path)
        }
        let a = try await record(script, "a.jsonl")
        let b = try await record(other, "b.jsonl")
        // The first transaction of the changed command: after those of the commands before it.
        let prefix = try await record(Array(script.prefix(changedAt)), "prefix.jsonl")
        let comparison = try CompareCommand.compare(a, b)
        #expect(comparison.diverges)
        #expect(comparison.step == prefix.reader.lastStep + 1)
        #expect(comparison.matchingTransactions == prefix.reader.lastStep)
        #expect(comparison.differences.contains { $0.kind == "value" && $0.atom == "TodosAtom" && $0.diff?.contains("+") == true })
        let (text, diverges) = try CompareCommand.run(a, b)
        #expect(diverges)
        #expect(text.hasPrefix("\(a.path) and \(b.path) diverge at step \(prefix.reader.lastStep + 1)"))
    }

    /// The small session with its editor at another line and another draft text.
    private func drafts(in directory: TemporaryDirectory, _ name: String, editorLine: Int, draft: String) throws -> InspectedJournal {
        let path = directory.path(name)
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4, program: "tests")
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Tasks/List.swift", line: 12)
        list.watch(TaskCountAtom(), fileID: "Tasks/List.swift", line: 12)
        list[TasksAtom()] = [TaskItem(id: 1, title: "Write", done: false)]
        let editor = root.viewContext(fileID: "Tasks/Editor.swift", line: UInt(editorLine))
        editor.watch(DraftAtom(slot: 1), fileID: "Tasks/Editor.swift", line: UInt(editorLine))
        editor.set(draft, for: DraftAtom(slot: 1), at: SourceLocation(fileID: "Tasks/Editor.swift", line: UInt(editorLine + 1)))
        try recorder.close()
        withExtendedLifetime((list, editor)) {}
        return try InspectedJournal(path: path)
    }

    @Test func ignoredAtomsAndLocationsAreLeftOut() throws {
        let directory = try TemporaryDirectory()
        let a = try drafts(in: directory, "a.jsonl", editorLine: 30, draft: "one")
        let moved = try drafts(in: directory, "moved.jsonl", editorLine: 40, draft: "one")
        let edited = try drafts(in: directory, "edited.jsonl", editorLine: 30, draft: "two")

        let byLocation = try CompareCommand.compare(a, moved)
        #expect(byLocation.diverges)
        #expect(byLocation.differences.map(\.kind) == ["at", "subscriptions"], "the watch and the subscription moved")
        #expect(try !CompareCommand.compare(a, moved, options: .init(ignoreLocations: true)).diverges)

        let byValue = try CompareCommand.compare(a, edited)
        #expect(byValue.differences.map { "\($0.kind) \($0.atom ?? "")" } == ["value DraftAtom[1]"])
        #expect(byValue.step == a.reader.lastStep)
        #expect(try !CompareCommand.compare(a, edited, options: .init(ignore: ["Draft*"])).diverges)
        #expect(try CompareCommand.compare(a, edited, options: .init(ignore: ["Tasks*"])).diverges)
    }

    @Test func aJournalThatGoesOnDivergesWhereTheOtherEnds() throws {
        let directory = try TemporaryDirectory()
        let long = try InspectedJournal(path: RecordedSessions.long(in: directory, operations: 40))
        let shorterDirectory = try TemporaryDirectory()
        let short = try InspectedJournal(path: RecordedSessions.long(in: shorterDirectory, operations: 30))
        let comparison = try CompareCommand.compare(short, long)
        #expect(comparison.step == short.reader.lastStep + 1)
        #expect(comparison.differences.map(\.kind) == ["length"])
        #expect(comparison.transactionA == nil && comparison.transactionB != nil)
    }

    // MARK: step

    @Test func stepBlamesAndMovesWhereAConditionBecomesTrue() throws {
        let journal = try Self.shipped("todo")
        let found = try FindCommand.find(journal, where: "StatsAtom.total == 4").steps.map(\.step)
        #expect(found.count >= 2)
        let session = try StepSession(journal: journal)
        #expect(session.handle("where StatsAtom.total == 4").output.hasPrefix("[\(found[0])/"))
        #expect(session.handle("w   StatsAtom.total  ==  4").output.hasPrefix("[\(found[1])/"))
        #expect(session.handle("where -b StatsAtom.total == 4").output.hasPrefix("[\(found[0])/"))
        #expect(session.handle("where -b StatsAtom.total == 4").output == "no earlier step where StatsAtom.total == 4 becomes true")
        #expect(session.position == found[0])
        let blame = session.handle("blame StatsAtom").output
        #expect(blame.hasPrefix("StatsAtom at step \(found[0]): changed at step \(found[0]) by set"))
        #expect(session.handle("where StatsAtom.total >").output.hasPrefix("error: malformed expression at column"))
        #expect(session.handle("blame").output.hasPrefix("error: blame needs an atom"))
    }

    // MARK: the binary

    @Test func theBinaryExitsAsDocumented() async throws {
        let journal = Self.repository.appendingPathComponent("samples/journals/todo.jsonl").path
        let found = try await BuiltProducts.run("atoms-inspect", ["find", journal, "--where", "StatsAtom.total == 4", "--first"])
        #expect(found.status == 0)
        #expect(found.stdout.hasPrefix("step "))
        let none = try await BuiltProducts.run("atoms-inspect", ["find", journal, "--where", "StatsAtom.total == 4000"])
        #expect(none.status == 1)
        let malformed = try await BuiltProducts.run("atoms-inspect", ["find", journal, "--where", "StatsAtom.total =="])
        #expect(malformed.status == 64)
        #expect(malformed.stderr.contains("column 19") && malformed.stderr.split(separator: "\n").count == 1)
        let both = try await BuiltProducts.run("atoms-inspect", ["find", journal, "--where", "StatsAtom.total == 4", "--first", "--all"])
        #expect(both.status == 64)
        let unknown = try await BuiltProducts.run("atoms-inspect", ["blame", journal, "Nope"])
        #expect(unknown.status == 64 && unknown.stderr.contains("Nope"))
        let blame = try await BuiltProducts.run("atoms-inspect", ["blame", journal, "StatsAtom", "--json"])
        #expect(blame.status == 0 && blame.stdout.contains(#""path" : ["#))
        let same = try await BuiltProducts.run("atoms-inspect", ["compare", journal, journal])
        #expect(same.status == 0)
        let other = Self.repository.appendingPathComponent("samples/journals/counter.jsonl").path
        let different = try await BuiltProducts.run("atoms-inspect", ["compare", journal, other, "--json"])
        #expect(different.status == 1 && different.stdout.contains(#""diverges" : true"#))
    }
}

/// `show --json` as the tests read it.
struct ShownState: Decodable {
    struct Atom: Decodable {
        let atom: String
        let value: JSONValue?
    }

    let step: Int
    let atoms: [Atom]
}
