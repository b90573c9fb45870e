import Foundation
import Testing
import TestSupport
import AtomsJournal

/// A journal written by hand from docs/JOURNAL_FORMAT.md, with fields in another order than
/// the reference writer uses, reads as the spec says.
struct FormatConformanceTests {
    let text = """
        {"version":1,"minor":3,"format":"atoms-journal","created":"2026-01-01T00:00:00Z","keyframeInterval":2,"extra":"ignored"}
        {"seq":0,"type":"keyframe","atoms":[],"values":[],"edges":[],"subs":[]}
        {"seq":1,"type":"tx","t":0.5,"cause":"initialize","at":"App/Main.swift:3","declare":[{"id":1,"label":"UserAtom","type":"App.UserAtom","key":"1"},{"id":2,"label":"UserAtom","type":"App.UserAtom","key":"2"},{"id":3,"label":"NamesAtom","type":"App.NamesAtom"}],"values":[{"id":1,"v":"Ada"},{"id":2,"v":"Bob"},{"id":3,"v":["Ada","Bob"]}],"created":[1,2,3],"edgesAdded":[{"from":1,"to":3},{"from":2,"to":3}],"subsAdded":[{"atom":3,"at":"App/Main.swift:3"}]}
        {"type":"tx","seq":2,"t":1,"cause":"set","origin":2,"values":[{"id":2,"v":"Cy"},{"id":3,"v":["Ada","Cy"]}],"future":{"field":true}}
        {"type":"keyframe","seq":2,"atoms":[{"id":1,"label":"UserAtom","type":"App.UserAtom","key":"1"},{"id":2,"label":"UserAtom","type":"App.UserAtom","key":"2"},{"id":3,"label":"NamesAtom","type":"App.NamesAtom"}],"values":[{"id":1,"v":"Ada"},{"id":2,"v":"Cy"},{"id":3,"v":["Ada","Cy"]}],"edges":[{"from":1,"to":3},{"from":2,"to":3}],"subs":[{"atom":3,"at":"App/Main.swift:3"}]}
        {"type":"tx","seq":3,"t":2,"cause":"release","released":[1,2,3],"edgesRemoved":[{"from":1,"to":3},{"from":2,"to":3}],"subsRemoved":[{"atom":3,"at":"App/Main.swift:3"}]}

        """

    @Test func handWrittenJournalReadsAsSpecified() throws {
        let directory = try TemporaryDirectory()
        let journal = try JournalReader(path: try directory.write("hand.jsonl", text))
        #expect(journal.header.minor == 3)
        #expect(journal.firstStep == 0 && journal.lastStep == 3)
        #expect(journal.keyframeSteps == [0, 2])

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
