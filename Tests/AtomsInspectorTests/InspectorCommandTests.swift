import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

@MainActor
struct InspectorCommandTests {
    @Test func logListsOneLinePerTransaction() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let output = try LogCommand.run(journal, options: .init())
        let lines = output.split(separator: "\n")
        #expect(lines.count == 9)
        // Each write at its own line of the fixture (RecordedSessions.small).
        #expect(lines[3].contains("set") && lines[3].contains("TasksAtom") && lines[3].contains("@ AtomsInspectorTests/RecordedSessions.swift:50"))
        #expect(lines[4].contains("@ AtomsInspectorTests/RecordedSessions.swift:51"))
        #expect(lines[0].contains("@ Tasks/List.swift:12"), "a watch's initialization is at the subscriber")
        #expect(lines[6].contains("+DraftAtom[1]"))
        #expect(!output.contains("\u{1B}["), "no colour unless asked")

        let filtered = try LogCommand.entries(journal, options: .init(atom: "Draft*"))
        #expect(filtered.map(\.step) == [7, 8, 9])
        let ranged = try LogCommand.entries(journal, options: .init(from: .number(4), to: .fromLast(1)))
        #expect(ranged.map(\.step) == [4, 5, 6, 7, 8])
        #expect(throws: InspectorError.self) { try LogCommand.entries(journal, options: .init(atom: "NoSuchAtom")) }
    }

    @Test func showValuesAtAStep() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let output = try ShowCommand.run(journal, at: .number(5), atom: "TaskCountAtom")
        #expect(output == "step 5 of 9, 4 live atoms · set @ AtomsInspectorTests/RecordedSessions.swift:51\nTaskCountAtom = 2")
        let atStep = try ShowCommand.run(journal, at: .number(5), json: true)
        #expect(atStep.contains(#""at" : "AtomsInspectorTests/RecordedSessions.swift:51""#) && atStep.contains(#""cause" : "set""#))
        let json = try ShowCommand.run(journal, at: .fromLast(0), atom: "DraftAtom*", json: true)
        #expect(json.contains(#""atom" : "DraftAtom[2]""#))
        #expect(json.contains(#""value" : "draft""#))
        #expect(throws: InspectorError.self) { try ShowCommand.run(journal, atom: "NoSuchAtom") }
    }

    @Test func graphOfAKnownSessionIsExact() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        if let path = ProcessInfo.processInfo.environment["ATOMS_WRITE_GOLDEN"] {
            try (try GraphCommand.dot(journal) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: #require(Bundle.module.url(forResource: "small-last", withExtension: "dot", subdirectory: "Golden")), encoding: .utf8)
        #expect(try GraphCommand.dot(journal) + "\n" == golden)
        #expect(try GraphCommand.dot(journal, at: .number(0)) == "digraph {}")
    }

    @Test(.enabled(if: Graphviz().executable != nil, "Graphviz dot is installed (CI installs it)"))
    func everyEmittedDOTParsesWithGraphviz() async throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        // `dot` runs once a step: on a thread of its own, not a test's.
        let (svgs, png) = try await OwnThread.run {
            let journal = try InspectedJournal(path: path)
            let svgs = try (journal.reader.firstStep...journal.reader.lastStep).map { step in
                (step, try GraphCommand.render(journal, at: .number(step), format: .svg))
            }
            return (svgs, try GraphCommand.render(journal, format: .png))
        }
        for (step, svg) in svgs {
            #expect(String(decoding: svg, as: UTF8.self).contains("<svg"), "step \(step)")
        }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func missingGraphvizIsExit69() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let noGraphviz = Graphviz(environment: ["PATH": directory.url.path])
        #expect(throws: InspectorError.self) {
            try GraphCommand.render(journal, format: .svg, graphviz: noGraphviz)
        }
        do {
            _ = try GraphCommand.render(journal, format: .svg, graphviz: noGraphviz)
        } catch {
            #expect(error.status == .unavailable)
            #expect(error.message.contains("apt-get install graphviz"))
        }
    }

    @Test func diffShowsValuesAtomsAndEdges() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let difference = try DiffCommand.difference(journal, from: .number(5), to: .fromLast(0))
        #expect(difference.changed.map(\.atom) == ["ShowDoneTasksAtom", "TaskCountAtom", "VisibleTasksAtom"])
        #expect(difference.created == ["DraftAtom[1]", "DraftAtom[2]"])
        #expect(difference.released.isEmpty)
        let count = try #require(difference.changed.first { $0.atom == "TaskCountAtom" })
        #expect(count.diff == "- 2\n+ 1")
        let visible = try #require(difference.changed.first { $0.atom == "VisibleTasksAtom" })
        // The removed element, as lines of the values' pretty JSON, the unchanged start folded.
        #expect(visible.diff == """
              … (2 unchanged)
                  "done": false,
                  "id": 1,
                  "title": "Write"
            -   },
            -   {
            -     "done": true,
            -     "id": 2,
            -     "title": "Test"
                }
              ]
            """)

        let (_, differs) = try DiffCommand.run(journal, from: .number(9), to: .number(9))
        #expect(!differs)
        let edges = try DiffCommand.difference(journal, from: .number(0), to: .number(3))
        #expect(edges.edgesAdded == ["ShowDoneTasksAtom -> VisibleTasksAtom", "TasksAtom -> VisibleTasksAtom", "VisibleTasksAtom -> TaskCountAtom"])
    }

    @Test func diffFirstToLastDecodesOnlyNearKeyframes() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.long(in: directory, operations: 600))
        let difference = try DiffCommand.difference(journal, from: .number(0), to: .fromLast(0))
        #expect(difference.created.contains("TasksAtom"))
    }

    @Test func restoreWritesAStateFileAndListsWhatIsMissing() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let output = directory.path("state.json")
        let report = try RestoreCommand.run(journal, at: .number(6), output: output)
        #expect(report == "wrote \(output): 4 atoms at step 6")
        let file = try StateFile.read(path: output)
        #expect(file.step == 6)
        #expect(file.atoms.map(\.label) == ["ShowDoneTasksAtom", "TaskCountAtom", "TasksAtom", "VisibleTasksAtom"])
        do {
            _ = try RestoreCommand.run(journal, at: .number(6), output: "/nonexistent/dir/state.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.status == .cannotCreate)
            #expect(error.path == "/nonexistent/dir/state.json" && error.line == nil)
            #expect(error.message.hasPrefix("cannot create"))
            #expect(error.description.hasPrefix("atoms-inspect: /nonexistent/dir/state.json: error: cannot create"))
        }
    }

    @Test func statsSummarizeTheJournal() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let stats = try StatsCommand.stats(journal)
        #expect(stats.transactions == 9)
        #expect(stats.keyframes == 2)
        #expect(stats.atoms == 6)
        #expect(stats.causes == ["initialize": 5, "set": 4])
        #expect(stats.mostChanged.first?.atom == "TaskCountAtom" || stats.mostChanged.first?.atom == "TasksAtom")
    }

    /// An atom released and declared again under a new number is one atom: counted once,
    /// its changes under both numbers summed.
    @Test func statsCountAnAtomThatCameBackOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("back.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(FillerAtom())
        for round in 0..<3 {
            context.watch(ReturningAtom())
            context[ReturningAtom()] = round + 1
            context[ReturningAtom()] += 1
            context.unwatch(ReturningAtom())
            // Past a keyframe, which forgets the released atom: it comes back under a new number.
            // A keyframe follows once the lines since the last weigh twice as much as it, and
            // a line's weight depends on its time's digits: about 40 writes cross that, so 120
            // leave one keyframe among them however the times are written.
            for _ in 0..<120 { context[FillerAtom()] += 1 }
        }
        try recorder.close()
        let journal = try InspectedJournal(path: path)
        let numbers = try journal.declarations(through: journal.reader.lastStep).values.filter { $0.label == "ReturningAtom" }
        #expect(numbers.count == 3, "declared under three numbers")
        let stats = try StatsCommand.stats(journal)
        let writes = try journal.reader.summary().valueWrites
        let total = numbers.map { writes[$0.id] ?? 0 }.reduce(0, +)
        #expect(total >= 6)
        #expect(stats.atoms == 2)
        #expect(stats.mostChanged.filter { $0.atom != "FillerAtom" } == [StatsCommand.Stats.Changed(atom: "ReturningAtom", changes: total, writes: total)], "\(stats.mostChanged)")
    }

    /// `stats` counts an atom's changes and its writes apart: a write of an equal value is a
    /// write, not a change, and the atoms are ranked by their changes.
    @Test func statsCountChangesAndWritesApart() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("equal.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(FillerAtom())
        context.watch(ReturningAtom())
        // With the first value each is created with: FillerAtom 7 writes, 3 of them changes
        // (0, 1, 2); ReturningAtom 4 writes, all changes.
        for value in [1, 1, 1, 1, 1, 2] { context[FillerAtom()] = value }
        for value in [1, 2, 3] { context[ReturningAtom()] = value }
        try recorder.close()
        let journal = try InspectedJournal(path: path)
        let stats = try StatsCommand.stats(journal)
        #expect(stats.mostChanged == [
            StatsCommand.Stats.Changed(atom: "ReturningAtom", changes: 4, writes: 4),
            StatsCommand.Stats.Changed(atom: "FillerAtom", changes: 3, writes: 7),
        ])
        let text = try StatsCommand.run(journal)
        #expect(text.contains("      3  FillerAtom  (7 writes)"), "\(text)")
        #expect(text.contains("      4  ReturningAtom\n"), "\(text)")
        let json = try StatsCommand.run(journal, json: true)
        #expect(json.contains(#""writes" : 7"#) || json.contains(#""writes":7"#), "\(json)")
    }

    @Test func errorsCarryTheirFileAndLineAsFields() throws {
        let directory = try TemporaryDirectory()
        let rules = try directory.write("bad.rules", "edge A -> B\nfrobnicate X\n")
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        do {
            _ = try CheckCommand.run(journal, rules: rules)
            Issue.record("expected an error")
        } catch {
            #expect(error.path == rules && error.line == 2 && error.status == .dataError)
            #expect(!error.message.contains(rules), "the message does not repeat the location")
            #expect(error.description.hasPrefix("atoms-inspect: \(rules):2: error: "))
        }
        // A message with a colon and no file is not taken for a location.
        #expect(InspectorError(.usage, "goto needs a step: e.g. goto 12").description == "atoms-inspect: error: goto needs a step: e.g. goto 12")
    }

    @Test func aBackwardDiffNamesAtomsTheEarlierStepHeld() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        // Step 6 has atoms that step 0 (empty) does not: backwards, they are released.
        let difference = try DiffCommand.difference(journal, from: .fromLast(0), to: .number(0))
        #expect(!difference.released.isEmpty)
        #expect(difference.released.allSatisfy { !$0.hasPrefix("#") }, "named, not numbered: \(difference.released)")
        #expect(difference.released.contains("TasksAtom"))
    }

    @Test func logTimesAreSecondsWithThreeDecimals() {
        #expect(LogCommand.seconds(milliseconds: 1234.5678) == "1.235")
        #expect(LogCommand.seconds(milliseconds: 999.6) == "1.000")
        #expect(LogCommand.seconds(milliseconds: 0.4) == "0.000")
        #expect(LogCommand.seconds(milliseconds: 5) == "0.005")
        #expect(LogCommand.seconds(milliseconds: -5) == "-0.005")
        #expect(LogCommand.seconds(milliseconds: 61_000) == "61.000")
    }

    @Test func stepSpecsResolve() throws {
        #expect(StepSpec("last") == .fromLast(0))
        #expect(StepSpec("last-3") == .fromLast(3))
        #expect(StepSpec("12") == .number(12))
        #expect(StepSpec("-1") == nil)
        #expect(StepSpec("lastish") == nil)
        #expect(try StepSpec.fromLast(2).resolve(first: 0, last: 10, journal: "j") == 8)
        #expect(try StepSpec.number(0).resolve(first: 4, last: 10, journal: "j") == 4)
        #expect(throws: InspectorError.self) { try StepSpec.fromLast(11).resolve(first: 0, last: 10, journal: "j") }
    }

    @Test func coloursOnlyOnATerminalAndNeverWithNoColor() {
        #expect(!Style.forOutput(-1).isColored)
        #expect(!Style.forOutput(STDIN_FILENO, environment: ["NO_COLOR": "1"]).isColored)
        #expect(Style(isColored: true).bold("x") == "\u{1B}[1mx\u{1B}[0m")
    }

    @Test func errorLinesNameTheInput() {
        #expect(InspectorError(JournalError.malformedLine(path: "j.jsonl", line: 4, reason: "bad")).description
            == "atoms-inspect: j.jsonl:4: error: malformed journal line: bad — the file is damaged; restore it or cut the journal before this line")
        #expect(InspectorError(.usage, "invalid step 'x' — use 0").description == "atoms-inspect: error: invalid step 'x' — use 0")
    }
}

/// An atom watched, changed and released again and again.
private struct ReturningAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// An atom written while another is away.
private struct FillerAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Integers past a `Double`'s precision.
private struct BigNumbersAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [UInt64] { [UInt64.max, 1 << 53 + 1] }
}

@MainActor
struct ExactNumberOutputTests {
    @Test func showAndDiffPrintNumbersAsRecorded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("big.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(BigNumbersAtom())
        context[BigNumbersAtom()].append((1 << 53) - 1)
        try recorder.close()
        let journal = try InspectedJournal(path: path)

        let json = try ShowCommand.run(journal, at: .fromLast(0), json: true)
        #expect(json.contains("18446744073709551615") && json.contains("9007199254740993") && json.contains("9007199254740991"))
        let text = try ShowCommand.run(journal, at: .fromLast(0))
        #expect(text.contains("18446744073709551615") && text.contains("9007199254740993"))
        let (diff, _) = try DiffCommand.run(journal, from: .number(1), to: .fromLast(0))
        #expect(diff.contains("9007199254740991") && !diff.contains("9007199254740992"))
        let diffJSON = try DiffCommand.run(journal, from: .number(1), to: .fromLast(0), json: true).output
        #expect(diffJSON.contains("18446744073709551615"))
    }

    /// A number no `Double` holds (a journal written by another program may hold one): `--json`
    /// prints its text, as the text output does, and never `null`.
    @Test func jsonPrintsNumbersPastADoublesRangeAsRecorded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("huge.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(MeasuresAtom())
        context[MeasuresAtom()] = [12345.5, 2]
        context[MeasuresAtom()] = [12345.5, 3]
        try recorder.close()
        // The same length, so that the journal's index still holds. The value's first element
        // (after a `[`), never a time (after a `,`) whose digits may hold it.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("[12345.5,"))
        try text.replacingOccurrences(of: "[12345.5,", with: "[1.5e400,").write(toFile: path, atomically: true, encoding: .utf8)
        let journal = try InspectedJournal(path: path)

        let show = try ShowCommand.run(journal, at: .fromLast(0), json: true)
        #expect(show.contains("1.5e400") && !show.contains("null"), "\(show)")
        #expect(try ShowCommand.run(journal, at: .fromLast(0)).contains("1.5e400"))
        let diff = try DiffCommand.run(journal, from: .number(1), to: .fromLast(0), json: true).output
        #expect(diff.contains("1.5e400") && diff != "null", "\(diff)")
        let blame = try BlameCommand.run(journal, atom: "MeasuresAtom", json: true)
        #expect(blame.contains("1.5e400") && blame != "null", "\(blame)")
        let followed = JSONOutput.encodeLine(try JSONValue.parse(Array(#"{"n":[1.5e400,0.10000000000000000000001,-0]}"#.utf8)))
        #expect(followed == #"{"n":[1.5e400,0.10000000000000000000001,-0]}"#)
    }
}

/// Numbers written whole, as a journal holds any `Double`.
private struct MeasuresAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [Double] { [] }
}
