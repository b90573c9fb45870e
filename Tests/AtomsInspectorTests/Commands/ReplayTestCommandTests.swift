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
}
