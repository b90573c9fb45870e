import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// A damaged journal may declare an atom's identity (type, key and scope) again while it is
/// live, under another number and label: every command takes the numbers as one atom, and
/// names and reads it alike.
struct IdentityDeclaredTwiceTests {
    /// A damaged journal that declares `FilteredTodosAtom`'s identity again, under the label
    /// `Sttom`, while it is live: either name selects both numbers, as `--where` binds a name
    /// to an identity. (A pattern selected only the number of the label it named, so the
    /// prompt's `f` and full decoding disagreed on which step changed the atom first.)
    @Test func aPatternSelectsEveryNumberOfTheIdentityItNames() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/journal-summary/find-halves-differ-61fccddf6b1bafeb.jsonl").path
        let journal = try InspectedJournal(path: path)
        let last = journal.reader.lastStep
        #expect(try AtomSelection.declared("Sttom", in: journal, through: last).ids == [1, 4])
        #expect(try AtomSelection.declared("FilteredTodosAtom", in: journal, through: last).ids == [1, 4])
        #expect(try AtomSelection.declared("Todos*", in: journal, through: last).ids == [3])
        #expect(try JournalSearch.next(.changes("Sttom"), in: journal, from: journal.reader.firstStep) == .found(1))
    }

    /// `stats` sums an identity's changes over its numbers and names it by its latest
    /// number's label, as `blame` does. (It took whichever number a dictionary yielded first, so its output
    /// changed from one run to the next.)
    @Test func statsNamesAnIdentityByItsLatestNumber() throws {
        // One identity under twelve labels, each number written once, and a second atom.
        let declare = (1...12).map { #"{"id":\#($0),"label":"Label\#($0)","type":"app.Twice"}"# }
        let values = (1...12).map { "[\($0),\"v\",\($0)]" }
        let lines = [
            #"{"format":"atoms-journal","version":4,"minor":0,"created":"2026-11-29T01:00:00Z","keyframeInterval":64,"program":"test"}"#,
            #"{"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[],"locs":[]}"#,
            #"{"type":"loc","id":1,"at":"app/main.swift:1"}"#,
            #"[1,1.0,"set",0,1,["# + values.joined(separator: ",") + #"],{"declare":["# + declare.joined(separator: ",") + #"],"created":["# + (1...12).map(String.init).joined(separator: ",") + "]}]",
            #"[2,2.0,"set",0,1,[[13,"v",0]],{"declare":[{"id":13,"label":"Other","type":"app.Other"}],"created":[13]}]"#,
        ]
        let directory = try TemporaryDirectory()
        let path = try directory.write("twice.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8))
        let stats = try StatsCommand.stats(InspectedJournal(path: path))
        #expect(stats.mostChanged.map(\.atom) == ["Label12", "Other"])
        #expect(stats.mostChanged.map(\.changes) == [12, 1])
        #expect(stats.atoms == 2)
    }

    /// `CountAtom` as number 1, then declared again as number 4, `Sttom`, while 1 is live.
    private static let twice = [
        #"{"format":"atoms-journal","version":4,"minor":0,"created":"2026-11-29T01:00:00Z","keyframeInterval":64,"program":"test"}"#,
        #"{"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[],"locs":[]}"#,
        #"{"type":"loc","id":1,"at":"app/main.swift:1"}"#,
        #"[1,1.0,"set",0,1,[[1,"v",1]],{"declare":[{"id":1,"label":"CountAtom","type":"app.CountAtom"}],"created":[1]}]"#,
        #"[2,2.0,"set",0,1,[[4,"v",100]],{"declare":[{"id":4,"label":"Sttom","type":"app.CountAtom"}],"created":[4]}]"#,
        #"[3,3.0,"set",1,1,[[1,"v",2]]]"#,
        #"[4,4.0,"set",4,1,[[4,"v",200]]]"#,
    ]

    /// `diff --atom` decodes the numbers it compares, and `log --atom` lists the steps that
    /// wrote any of them, whichever label names the atom (`log` reads in order, so from the
    /// step that declares the label). (`diff` decoded the numbers of the label only, then
    /// compared every number of the identity, and trapped on a value it had not decoded.)
    @Test(arguments: [("Sttom", [2, 3, 4]), ("CountAtom", [1, 2, 3, 4])])
    func diffAndLogSelectEveryNumberOfTheAtom(name: String, listed: [Int]) throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: directory.write("twice.jsonl", Data((Self.twice.joined(separator: "\n") + "\n").utf8)))
        let difference = try DiffCommand.difference(journal, from: .number(2), to: .number(3), atom: name)
        #expect(difference.changed.map(\.from) == [.number(JSONNumber(1))])
        #expect(difference.changed.map(\.to) == [.number(JSONNumber(2))])
        #expect(try LogCommand.entries(journal, options: .init(atom: name)).map(\.step) == listed)
    }
}
