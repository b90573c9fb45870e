import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@testable import AtomsInspector

/// The built `atoms-inspect`: stdout, stderr and exit status checked separately.
@MainActor
struct BinaryTests {
    private func inspect(_ arguments: String..., stdin: String = "", environment: [String: String]? = nil) async throws -> BuiltProducts.Run {
        try await BuiltProducts.run("atoms-inspect", arguments, stdin: stdin, environment: environment)
    }

    @Test func logToAPipeIsOneLinePerTransactionWithoutHeaderOrColour() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let result = try await inspect("log", journal)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 9)
        #expect(lines.first?.hasPrefix("    1 ") == true)
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test func errorsAreOneLineOnStderrWithDocumentedStatuses() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)

        let missing = try await inspect("show", directory.path("missing.jsonl"))
        #expect(missing.status == 66)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "atoms-inspect: \(directory.path("missing.jsonl")): error: cannot read: no such file — check the path and permissions\n")

        let garbage = try directory.write("garbage.jsonl", "{\"format\":\"atoms-journal\",\"version\":1,\"minor\":0,\"created\":\"x\",\"keyframeInterval\":4}\nnot json at all\n")
        let malformed = try await inspect("log", garbage)
        #expect(malformed.status == 65)
        #expect(malformed.stderr.hasPrefix("atoms-inspect: \(garbage):2: error: malformed journal line"))
        #expect(malformed.stderr.split(separator: "\n").count == 1)

        let badStep = try await inspect("show", journal, "--at", "999")
        #expect(badStep.status == 64)
        #expect(badStep.stderr.contains("step 999 is outside the journal (steps 0…9)"))

        let notAStep = try await inspect("show", journal, "--at", "banana")
        #expect(notAStep.status == 64)
        #expect(!notAStep.stderr.contains("Fatal error"))

        let unknownAtom = try await inspect("show", journal, "--atom", "Nope")
        #expect(unknownAtom.status == 64)
        #expect(unknownAtom.stderr.contains("no atom matches 'Nope'"))

        let noDot = try await inspect("graph", journal, "--format", "svg", environment: ["PATH": directory.url.path])
        #expect(noDot.status == 69)
        #expect(noDot.stderr.contains("apt-get install graphviz"))

        let writesAlone = try await inspect("log", journal, "--writes")
        #expect(writesAlone.status == 64)
        #expect(writesAlone.stderr.contains("give --atom NAME too"), "\(writesAlone.stderr)")

        let unknownOption = try await inspect("log", journal, "--bogus")
        #expect(unknownOption.status == 64)
    }

    @Test func scriptedStepSessionPrintsPositionsAndValues() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let result = try await inspect("step", journal, stdin: "n\nn\np\ns\nq\n")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            [0/9] before the first transaction
            [1/9] initialize TaskCountAtom, VisibleTasksAtom, TasksAtom, ShowDoneTasksAtom @ Tasks/List.swift:12
            [2/9] initialize - @ Tasks/List.swift:12
            [1/9] initialize TaskCountAtom, VisibleTasksAtom, TasksAtom, ShowDoneTasksAtom @ Tasks/List.swift:12
            step 1 of 9, 4 live atoms · initialize @ Tasks/List.swift:12
            ShowDoneTasksAtom = true
            TaskCountAtom = 0
            TasksAtom = []
            VisibleTasksAtom = []

            """)
    }

    @Test func checkPassesFailsAndWritesValidJUnit() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let passing = try directory.write("pass.rules", """
            # the list screen's graph
            edge TasksAtom -> VisibleTasksAtom
            edge Visible* -> TaskCountAtom
            no-edge TaskCountAtom -> TasksAtom
            node DraftAtom[*]
            no-node Legacy*
            acyclic
            max-depth 3
            max-nodes 6
            """)
        let pass = try await inspect("check", journal, "--rules", passing, "--junit", directory.path("pass.xml"))
        #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
        #expect(pass.stdout.contains("checked 8 rules at step 9"))

        let failing = try directory.write("fail.rules", "edge TaskCountAtom -> TasksAtom\nmax-depth 2\nacyclic\n")
        let fail = try await inspect("check", journal, "--rules", failing, "--junit", directory.path("fail.xml"))
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("FAIL \(failing):1: edge TaskCountAtom -> TasksAtom"))
        #expect(fail.stdout.contains("FAIL \(failing):2: max-depth 2 — longest chain has 3 atoms: "))
        #expect(!fail.stdout.contains(":3:"))

        for report in ["pass.xml", "fail.xml"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory.path(report)))
            let parser = XMLParser(data: data)
            #expect(parser.parse(), "\(report) is well-formed XML")
        }
        let failXML = try String(contentsOfFile: directory.path("fail.xml"), encoding: .utf8)
        #expect(failXML.components(separatedBy: "<testcase ").count - 1 == 3)
        #expect(failXML.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(failXML.contains("edge TaskCountAtom -&gt; TasksAtom"))

        let malformed = try directory.write("bad.rules", "acyclic\nedge OnlyOne\n")
        let bad = try await inspect("check", journal, "--rules", malformed)
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("atoms-inspect: \(malformed):2: error: 'edge' needs two names"))

        let absent = try await inspect("check", journal, "--rules", directory.path("none.rules"))
        #expect(absent.status == 66)
    }

    @Test func diffExitCodeAndRestore() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        #expect(try await inspect("diff", journal, "5", "last", "--exit-code").status == 1)
        #expect(try await inspect("diff", journal, "last", "last", "--exit-code").status == 0)
        #expect(try await inspect("diff", journal, "5", "last").status == 0)

        let state = directory.path("state.json")
        let restore = try await inspect("restore", journal, "--at", "last-3", "-o", state)
        #expect(restore.status == 0)
        #expect(restore.stdout == "wrote \(state): 4 atoms at step 6\n")
        #expect(FileManager.default.fileExists(atPath: state))
    }

    @Test(.enabled(if: Graphviz().executable != nil, "Graphviz dot is installed (CI installs it)"))
    func graphRendersPNGToAFile() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let png = directory.path("graph.png")
        let result = try await inspect("graph", journal, "--format", "png", "-o", png)
        #expect(result.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
