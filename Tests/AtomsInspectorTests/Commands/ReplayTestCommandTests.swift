import Atoms
@testable import AtomsInspector
@testable import AtomsJournal
import Foundation
import Testing
import TestSupport

/// `atoms-inspect replay-test`: what it drives, checks and leaves out, and the files it writes
/// for the shipped journals, which AtomsTestingTests compiles and runs against the samples.
@MainActor
struct ReplayTestCommandTests {
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    }

    @Test(arguments: ["counter", "movies", "numpad", "todo"])
    func theFileForEachShippedJournalIsTheOneAtomsTestingTestsRuns(sample: String) throws {
        let path = "samples/journals/\(sample).jsonl"
        let journal = try InspectedJournal(path: repository.appendingPathComponent(path).path)
        let written = try ReplayTestCommand.source(journal, path: path)
        let committed = try String(contentsOf: repository.appendingPathComponent("Tests/AtomsTestingTests/Generated/\(sample.capitalized)ReplayTests.swift"), encoding: .utf8)
        // After an intended change: atoms-inspect replay-test samples/journals/S.jsonl -o Tests/AtomsTestingTests/Generated/SReplayTests.swift
        // (the samples' atoms are libraries, so every build, the sanitized one included, compiles them).
        #expect(written == committed)
    }

    @Test func writtenAtomsAreDrivenDerivedOnesCheckedAndFamiliesLeftOutWithWhy() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let plan = try ReplayTestCommand.plan(journal)
        #expect(plan.map(\.role) == ["drive", "drive", "check", "check", "none"])
        #expect(plan.map { $0.type.split(separator: ".").last.map(String.init) ?? "" } == ["ShowDoneTasksAtom", "TasksAtom", "TaskCountAtom", "VisibleTasksAtom", "DraftAtom"])
        #expect(plan[1].writes == 2 && plan[1].changes == 2)
        #expect(plan[3].writes == 0 && plan[3].changes == 3)
        #expect(plan[4].reason == "a family of 2 members (keys 1, 2): drive it with a closure making the member from its key")

        let source = try ReplayTestCommand.source(journal, path: "Fixtures/small.jsonl")
        #expect(source.contains("replay.drive(AtomsInspectorTests.ShowDoneTasksAtom())  // written once, changed once\n"), "\(source)")
        #expect(source.contains("replay.check(AtomsInspectorTests.VisibleTasksAtom())  // changed 3 times\n"), "\(source)")
        #expect(source.contains("        // AtomsInspectorTests.DraftAtom: a family of 2 members (keys 1, 2): drive it with a closure making the member from its key (written once, changed once)\n"), "\(source)")
        #expect(source.contains("@testable import AtomsInspectorTests\n"))
        #expect(source.contains("struct SmallReplayTests {\n    @Test func smallSessionStillBehaves() throws {\n"))
    }

    @Test func anAtomOnlyTheInspectorWroteIsDriven() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("inspected.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "tests")
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Tasks/List.swift", line: 12)
        list.watch(TaskCountAtom(), fileID: "Tasks/List.swift", line: 12)
        list[TasksAtom()] = [TaskItem(id: 1, title: "Write", done: true)]
        // The program never writes ShowDoneTasksAtom; atoms-inspect does, through the control
        // endpoint's `set`.
        let showDone = try #require(root.store.snapshot().atoms.first { $0.atomType == ShowDoneTasksAtom.self })
        #expect(root.store.write(showDone, from: RecordedValueSeeds(values: [RecordedValueSeeds.key(of: showDone): .bool(false)]), fileID: ControlWriteSite.fileID(.set), line: 3) == .written)
        try recorder.close()
        withExtendedLifetime(list) {}

        let journal = try InspectedJournal(path: path)
        #expect(try journal.transaction(journal.reader.lastStep, decodingValuesOf: []).cause == "inspector")
        let plan = try ReplayTestCommand.plan(journal)
        let planned = try #require(plan.first { $0.type.hasSuffix(".ShowDoneTasksAtom") })
        #expect(planned.role == "drive" && planned.writes == 1, "\(planned)")
    }

    @Test func typesSwiftCannotNameFromTheJournalAreLeftOut() {
        #expect(ReplayTestCommand.isNameable("App.TodosAtom"))
        #expect(ReplayTestCommand.isNameable("App.Outer.Inner_2"))
        #expect(!ReplayTestCommand.isNameable("Atoms.ModifiedAtom<App.QueryAtom, Atoms.ChangesModifier<Swift.String>>"))
        #expect(!ReplayTestCommand.isNameable("App.(unknown context at $1234).LocalAtom"))
        #expect(!ReplayTestCommand.isNameable(""))
    }

    @Test func theCommandWritesTheFileOrSaysWhyNot() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let output = directory.path("SmallReplayTests.swift")
        let written = try await BuiltProducts.run("atoms-inspect", ["replay-test", journal, "-o", output])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("replay.check(AtomsInspectorTests.TaskCountAtom())"))
        let missing = try await BuiltProducts.run("atoms-inspect", ["replay-test", directory.path("none.jsonl")])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("atoms-inspect: \(directory.path("none.jsonl")): error:"), "\(missing.stderr)")
    }

    @Test func theMoviesSessionLeavesOutOnlyItsDumpsEachWithWhy() throws {
        let journal = try InspectedJournal(path: repository.appendingPathComponent("samples/journals/movies.jsonl").path)
        let plan = try ReplayTestCommand.plan(journal)
        let left = plan.filter { $0.role == "none" }
        #expect(left.map(\.type) == ["SampleMovies.MovieAPIAtom", "SampleMovies.SearchMoviesAtom"])
        #expect(left.allSatisfy { $0.reason?.contains("dump") == true })
        #expect(plan.filter { $0.role == "drive" }.compactMap(\.expression) == [
            "SampleMovies.QueryAtom().debounce(for: 0.05)", "SampleMovies.SearchMoviesAtom().phase", "SampleMovies.PageAtom()", "SampleMovies.QueryAtom()",
        ])
        #expect(plan.filter { $0.role == "check" }.compactMap(\.expression) == ["SampleMovies.SearchResultsAtom()"])
    }

    @Test func modifiedAtomsAreNamedByTheirModifierOnTheirBase() {
        #expect(SwiftAtomName.expression(type: "Atoms.ModifiedAtom<App.SearchAtom, Atoms.TaskPhaseModifier<App.Page, Swift.Error>>", key: nil) == "App.SearchAtom().phase")
        #expect(SwiftAtomName.expression(type: "Atoms.ModifiedAtom<App.QueryAtom, Atoms.DebounceModifier<Swift.String>>", key: "debounce 0.3s") == "App.QueryAtom().debounce(for: 0.3)")
        #expect(SwiftAtomName.expression(type: "Atoms.ModifiedAtom<Atoms.ModifiedAtom<App.QueryAtom, Atoms.ChangesModifier<Swift.String>>, Atoms.PreviousModifier<Swift.String>>", key: nil) == "App.QueryAtom().changes.previous")
        #expect(SwiftAtomName.expression(type: "App.QueryAtom", key: nil) == "App.QueryAtom()")
        // A key path or a closure, a family member, a local type: not written from the journal.
        #expect(SwiftAtomName.expression(type: "Atoms.ModifiedAtom<App.TodosAtom, Atoms.ChangesOfModifier<Swift.Array<App.Todo>, Swift.Int>>", key: "\\Array<Todo>.count") == nil)
        #expect(SwiftAtomName.expression(type: "App.ItemAtom", key: "3") == nil)
        #expect(SwiftAtomName.expression(type: "App.(unknown context at $1234).LocalAtom", key: nil) == nil)
    }

    @Test func untilWritesARegressionTestThatShrinksAndWatchesWhatItDoesNotDrive() throws {
        let path = "samples/journals/todo.jsonl"
        let journal = try InspectedJournal(path: repository.appendingPathComponent(path).path)
        let source = try ReplayTestCommand.source(journal, path: path, until: "StatsAtom.totalCompleted >= 10")
        #expect(source.contains("// under which StatsAtom.totalCompleted >= 10 becomes true (the recording reaches it at step 203).\n"), "\(source)")
        #expect(source.contains("struct TodoRegressionTests {\n    @Test func todoSessionNeverReachesTheCondition() throws {\n"))
        #expect(source.contains("        replay.drive(SampleTodo.TodosAtom())  // written 164 times, changed 164 times\n"))
        #expect(source.contains("        replay.watch(SampleTodo.StatsAtom())  // changed 164 times\n"))
        #expect(!source.contains("replay.check("))
        #expect(source.contains("        try replay.expectNever(\"StatsAtom.totalCompleted >= 10\", in: AtomTestContext.init)\n"))
        // Quotes in the condition are escaped in the Swift literal.
        let quoted = try ReplayTestCommand.source(journal, path: path, until: "FilterAtom == \"completed\"")
        #expect(quoted.contains("try replay.expectNever(\"FilterAtom == \\\"completed\\\"\", in: AtomTestContext.init)"), "\(quoted)")
    }

    @Test func untilRefusesAConditionItCannotTestWithOneMessageAndExit64() async throws {
        let path = repository.appendingPathComponent("samples/journals/movies.jsonl").path
        func run(_ condition: String) async throws -> (status: Int32, stderr: String) {
            let result = try await BuiltProducts.run("atoms-inspect", ["replay-test", path, "--until", condition])
            #expect(result.stdout.isEmpty)
            return (result.status, result.stderr)
        }
        let unparsed = try await run("PageAtom >")
        #expect(unparsed.status == 64 && unparsed.stderr.contains("column 11"), "\(unparsed.stderr)")
        let unknown = try await run("CartAtom == 1")
        #expect(unknown.status == 64 && unknown.stderr.contains("no atom in the journal is named 'CartAtom'"), "\(unknown.stderr)")
        let dump = try await run("MovieAPIAtom == \"x\"")
        #expect(dump.status == 64 && dump.stderr.contains("--until reads MovieAPIAtom (column 1), which a replay cannot drive or watch: recorded as a dump"), "\(dump.stderr)")
        let never = try await run("PageAtom > 100")
        #expect(never.status == 64 && never.stderr.contains("the recording never reaches --until 'PageAtom > 100'"), "\(never.stderr)")
        #expect([unparsed, unknown, dump, never].allSatisfy { $0.stderr.split(separator: "\n").count == 1 })
    }

    @Test func aTaskWhoseValueIsNotCodableIsLeftOutWithWhyAndSoIsWhatDerivesFromIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("profile.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "tests")
        recorder.attach(to: root.store)
        let screen = root.viewContext(fileID: "Profile/Screen.swift", line: 7)
        screen.watch(ProfileGreetingAtom(), fileID: "Profile/Screen.swift", line: 7)
        let arrived = await Poll.until(timeout: 60) { screen.read(ProfileGreetingAtom()) == "Hello, Ada" }
        #expect(arrived, "the task's result reached the greeting")
        try recorder.close()
        withExtendedLifetime(screen) {}

        // Its phase's success is recorded as a dump: `drive(ProfileTaskAtom().phase)` would not
        // compile (the value is not Decodable), so the file leaves the phase out, and the greeting
        // derived from it, each saying why.
        let plan = try ReplayTestCommand.plan(InspectedJournal(path: path))
        let phase = try #require(plan.first { $0.type.contains("TaskPhaseModifier") }, "\(plan)")
        #expect(phase.role == "none")
        #expect(phase.reason == "its results are recorded as dumps (its success value is not Codable): a replay has no value to deliver; make the value Codable to drive it")
        let greeting = try #require(plan.first { $0.type == "AtomsInspectorTests.ProfileGreetingAtom" }, "\(plan)")
        #expect(greeting.role == "none" && greeting.reason?.hasPrefix("derives from the asynchronous") == true, "\(greeting)")
        let source = try ReplayTestCommand.source(InspectedJournal(path: path), path: "profile.jsonl")
        #expect(!source.contains("replay.drive(AtomsInspectorTests.ProfileTaskAtom().phase)"), "\(source)")
    }
}

/// A value a task returns that is not `Codable`: the recorder writes it as a dump.
struct ProfileValue {
    let name: String
}

/// A task whose value is not `Codable`.
struct ProfileTaskAtom: TaskAtom, Hashable {
    func value(context: Context) async -> ProfileValue {
        ProfileValue(name: "Ada")
    }
}

/// What the screen shows, derived from the task's phase.
struct ProfileGreetingAtom: ValueAtom, Hashable {
    func value(context: Context) -> String {
        switch context.watch(ProfileTaskAtom().phase) {
        case .success(let profile): "Hello, \(profile.name)"
        default: "Loading"
        }
    }
}
