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

    /// `stats` sums an identity's changes over its numbers and names it by its lowest
    /// number's label. (It took whichever number a dictionary yielded first, so its output
    /// changed from one run to the next.)
    @Test func statsNamesAnIdentityByItsLowestNumber() throws {
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
        #expect(stats.mostChanged.map(\.atom) == ["Label1", "Other"])
        #expect(stats.mostChanged.map(\.changes) == [12, 1])
        #expect(stats.atoms == 2)
    }
}
