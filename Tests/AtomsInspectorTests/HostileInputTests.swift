import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Rules files, names and commands nobody should write: each gives an answer or a clear error,
/// never a trap or an injected statement.
@MainActor
struct HostileInputTests {
    private func state(_ keyframe: String) throws -> JournalState {
        JournalState(keyframe: try JSONDecoder().decode(KeyframeRecord.self, from: Data(keyframe.utf8)))
    }

    @Test func rulesOverAtomsTheJournalNeverDeclaredNameThemByNumber() throws {
        // A state built directly, past the reader's checks: a cycle through atoms 1 and 9.
        let state = try state(#"{"type":"keyframe","seq":0,"atoms":[{"id":1,"label":"A","type":"m.A"}],"values":[{"id":1,"v":1},{"id":9,"v":2}],"edges":[{"from":1,"to":9},{"from":9,"to":1}],"subs":[]}"#)
        let checker = RuleChecker(state: state)
        let rules = try RulesParser.parse("acyclic\nmax-depth 1\nmax-nodes 1\n", file: "r")
        let results = rules.map(checker.check)
        #expect(results.map(\.passed) == [false, false, false])
        #expect(results[0].detail?.contains("#9") == true)
    }

    @Test func rulesFilesWithCRLFLineEndingsHoldEveryRule() throws {
        let rules = try RulesParser.parse("# header\r\nacyclic\r\nmax-nodes 3\r\n\r\nnode A\r\n", file: "r")
        #expect(rules.map(\.line) == [2, 3, 5])
        let oldMac = try RulesParser.parse("acyclic\rmax-nodes 3\r", file: "r")
        #expect(oldMac.count == 2)
    }

    @Test(arguments: ["", "\n\n", "# only a comment\r\n", "   \n\t\n"])
    func aRulesFileWithoutRulesIsBadData(text: String) {
        #expect {
            try RulesParser.parse(text, file: "empty.rules")
        } throws: { error in
            guard let error = error as? InspectorError else { return false }
            return error.status == .dataError && error.path == "empty.rules" && error.message.contains("holds no rules")
        }
    }

    @Test func namesAndLocationsCannotInjectDOTStatements() async throws {
        let state = try state(#"{"type":"keyframe","seq":0,"atoms":[{"id":1,"label":"A\u0000\"]; evil","type":"m.A"}],"values":[{"id":1,"v":1}],"edges":[],"subs":[{"atom":1,"at":"F.swift:1\"] ; x -> y [label=\""}]}"#)
        let dot = state.graphDescription()
        let statements = dot.split(separator: "\n").dropFirst(2).dropLast()
        #expect(statements.count == 3, "one node, one file node, one subscription edge")
        #expect(!dot.contains("\u{0}"))
        #expect(dot.contains(#""A\\u{0}\"]; evil""#))
        #expect(dot.contains(#"[label="line:1\"] ; x -> y [label=\""]"#))
        if let dotPath = Graphviz().executable {
            let run = try await Subprocess.run(dotPath, ["-Tcanon"], stdin: dot, timeout: 60)
            #expect(run.status == 0, "dot parses it")
        }
    }

    @Test func junitReportsReplaceNonCharacters() {
        let result = RuleChecker.Result(rule: "node \u{FFFE}\u{FFFF}\u{1}", line: 1, passed: false, detail: "x\u{FFFF}")
        let xml = JUnitReport.xml([result], rulesFile: "r", journal: "j", step: 0)
        #expect(!xml.unicodeScalars.contains { $0 == "\u{FFFE}" || $0 == "\u{FFFF}" || $0 == "\u{1}" })
        #expect(xml.contains(#"name="node ???""#))
    }

    @Test func stepCountsAsLargeAsIntMaxStopAtTheEnds() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let session = try StepSession(journal: journal)
        let forward = session.handle("next 9223372036854775807")
        #expect(forward.output.hasPrefix("[9/9]"), "\(forward.output)")
        let back = session.handle("prev 9223372036854775807")
        #expect(back.output.hasPrefix("[0/9]"), "\(back.output)")
        let tooLarge = session.handle("next 99999999999999999999")
        #expect(tooLarge.output.hasPrefix("error:"))
    }

    @Test func lastMinusAHugeKIsOutsideTheJournal() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        #expect(throws: InspectorError.self) { try journal.step(.fromLast(Int.max)) }
        #expect(try journal.step(.fromLast(9)) == 0)
    }
}
