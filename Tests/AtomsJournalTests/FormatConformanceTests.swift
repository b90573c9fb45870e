import Foundation
import Testing
import TestSupport
import AtomsJournal

/// Journals written by hand from docs/JOURNAL_FORMAT.md read as the spec says: format 2 (what
/// the recorder writes) and format 1 (what earlier versions wrote), with fields in another
/// order than the reference writer uses.
struct FormatConformanceTests {
    let version2 = """
        {"version":2,"minor":4,"format":"atoms-journal","created":"2026-01-01T00:00:00Z","keyframeInterval":2,"extra":"ignored"}
        {"seq":0,"type":"keyframe","atoms":[],"values":[],"edges":[],"subs":[]}
        {"at":"App/Main.swift:3","id":1,"type":"loc"}
        [1,0.5,"initialize",0,1,[[1,"v","Ada"],[2,"v",{"name":"Bob","age":7}],[3,"v",["Ada","Bob"]]],{"declare":[{"id":1,"label":"UserAtom","type":"App.UserAtom","key":"1"},{"id":2,"label":"PetAtom","type":"App.PetAtom"},{"id":3,"label":"NamesAtom","type":"App.NamesAtom"}],"created":[1,2,3],"edgesAdded":[{"from":1,"to":3},{"from":2,"to":3}],"subsAdded":[{"atom":3,"at":"App/Main.swift:3"}],"future":1}]
        [2,1,"set",2,0,[[2,"p",{"age":8},["name"]],{"id":3,"dump":"[Ada, –]"}],{"future":true},"future"]
        {"type":"keyframe","seq":2,"atoms":[{"id":1,"label":"UserAtom","type":"App.UserAtom","key":"1"},{"id":2,"label":"PetAtom","type":"App.PetAtom"},{"id":3,"label":"NamesAtom","type":"App.NamesAtom"}],"values":[{"id":1,"v":"Ada"},{"id":2,"v":{"age":8}},{"id":3,"dump":"[Ada, –]"}],"edges":[{"from":1,"to":3},{"from":2,"to":3}],"subs":[{"atom":3,"at":"App/Main.swift:3"}]}
        [3,2,"release",0,1,[],{"released":[1,2,3],"edgesRemoved":[{"from":1,"to":3},{"from":2,"to":3}],"subsRemoved":[{"atom":3,"at":"App/Main.swift:3"}]}]

        """

    @Test func handWrittenVersion2JournalReadsAsSpecified() throws {
        let directory = try TemporaryDirectory()
        let journal = try JournalReader(path: try directory.write("hand2.jsonl", version2))
        #expect(journal.header.version == 2 && journal.header.minor == 4)
        #expect(journal.firstStep == 0 && journal.lastStep == 3)
        #expect(try journal.keyframeSteps == [0, 2])

        let first = try journal.transaction(1)
        #expect(first.at == "App/Main.swift:3" && first.origin == nil && first.cause == "initialize")
        #expect(first.created == [1, 2, 3])
        let second = try journal.transaction(2)
        #expect(second.at == nil && second.origin == 2)
        #expect(second.values?.first?.patch == ["age": .number(8)])

        // The patch applies to the value before it; replaying equals the keyframe.
        let replayed = try journal.advance(journal.state(at: 1), to: 2)
        #expect(replayed.values[2]?.v == .object(["age": .number(8)]))
        #expect(replayed.values[3]?.displayText == "[Ada, –]")
        #expect(replayed == (try journal.state(at: 2)))
        #expect(try journal.state(at: 3).liveAtoms.isEmpty)
    }

    @Test func aPatchOfAValueThatIsNotAnObjectIsReportedWithItsLine() throws {
        // Without the keyframe at step 2, reaching it replays the patch.
        let broken = version2.replacingOccurrences(of: #"[2,"p",{"age":8},["name"]]"#, with: #"[1,"p",{"age":8}]"#)
            .split(separator: "\n").filter { !$0.hasPrefix(#"{"type":"keyframe","seq":2"#) }.joined(separator: "\n") + "\n"
        let directory = try TemporaryDirectory()
        let journal = try JournalReader(path: try directory.write("bad.jsonl", broken))
        #expect(throws: JournalError.malformedLine(path: journal.path, line: 5, reason: "patches atom 1, whose value is not a recorded object")) {
            try journal.state(at: 2)
        }
        let unknownLocation = version2.replacingOccurrences(of: #"[3,2,"release",0,1,"#, with: #"[3,2,"release",0,9,"#)
        let other = try JournalReader(path: try directory.write("loc.jsonl", unknownLocation))
        #expect(throws: JournalError.self) { try other.transaction(3) }
    }

    let text = """
        {"version":1,"minor":3,"format":"atoms-journal","created":"2026-01-01T00:00:00Z","keyframeInterval":2,"extra":"ignored"}
        {"seq":0,"type":"keyframe","atoms":[],"values":[],"edges":[],"subs":[]}
        {"seq":1,"type":"tx","t":0.5,"cause":"initialize","at":"App/Main.swift:3","declare":[{"id":1,"label":"UserAtom","type":"App.UserAtom","key":"1"},{"id":2,"label":"UserAtom","type":"App.UserAtom","key":"2"},{"id":3,"label":"NamesAtom","type":"App.NamesAtom"}],"values":[{"id":1,"v":"Ada"},{"id":2,"v":"Bob"},{"id":3,"v":["Ada","Bob"]}],"created":[1,2,3],"edgesAdded":[{"from":1,"to":3},{"from":2,"to":3}],"subsAdded":[{"atom":3,"at":"App/Main.swift:3"}]}
        {"type":"tx","seq":2,"t":1,"cause":"set","origin":2,"values":[{"id":2,"v":"Cy"},{"id":3,"v":["Ada","Cy"]}],"future":{"field":true}}
        {"type":"keyframe","seq":2,"atoms":[{"id":1,"label":"UserAtom","type":"App.UserAtom","key":"1"},{"id":2,"label":"UserAtom","type":"App.UserAtom","key":"2"},{"id":3,"label":"NamesAtom","type":"App.NamesAtom"}],"values":[{"id":1,"v":"Ada"},{"id":2,"v":"Cy"},{"id":3,"v":["Ada","Cy"]}],"edges":[{"from":1,"to":3},{"from":2,"to":3}],"subs":[{"atom":3,"at":"App/Main.swift:3"}]}
        {"type":"tx","seq":3,"t":2,"cause":"release","released":[1,2,3],"edgesRemoved":[{"from":1,"to":3},{"from":2,"to":3}],"subsRemoved":[{"atom":3,"at":"App/Main.swift:3"}]}

        """

    @Test func handWrittenVersion1JournalStillReads() throws {
        let directory = try TemporaryDirectory()
        let journal = try JournalReader(path: try directory.write("hand.jsonl", text))
        #expect(journal.header.minor == 3)
        #expect(journal.firstStep == 0 && journal.lastStep == 3)
        #expect(try journal.keyframeSteps == [0, 2])

        let two = try journal.state(at: 2)
        #expect(two.liveAtoms.map(\.displayName) == ["NamesAtom", "UserAtom[1]", "UserAtom[2]"])
        #expect(two.graphDescription() == """
            digraph {
              node [shape=box]
              "App/Main.swift" [style=filled]
              "NamesAtom"
              "NamesAtom" -> "App/Main.swift" [label="line:3"]
              "UserAtom"
              "UserAtom" -> "NamesAtom"
            }
            """)
        #expect(two.graphDescription(distinguishingFamilies: true).contains("\"UserAtom[2]\" -> \"NamesAtom\""))
        #expect(try journal.advance(journal.state(at: 1), to: 2) == two)
        #expect(try journal.state(at: 3).liveAtoms.isEmpty)
        #expect(try journal.state(at: 3).graphDescription() == "digraph {}")
    }
}
