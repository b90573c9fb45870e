import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Declarations, edges, subscriptions and locations are read with `JSONScanner`: the same
/// records `JSONDecoder` made, the same tolerance of later additions, and the same errors.
struct GraphRecordScanningTests {
    private func scan<Value>(_ json: String, _ read: (inout JSONScanner) throws(JSONScanner.SyntaxError) -> Value) throws -> Value {
        let bytes = Array(json.utf8)
        return try bytes.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer, range: 0..<buffer.count)
            let value = try read(&scanner)
            try scanner.expectEnd()
            return value
        }
    }

    @Test(arguments: [
        #"{"id":3,"label":"ItemAtom","type":"App.ItemAtom","key":"7","scope":2}"#,
        #"{"scope":2,"key":"7","type":"App.ItemAtom","label":"ItemAtom","id":3}"#,
        #"{"id":3,"label":"ItemAtom","type":"App.ItemAtom","key":"7","scope":2,"later":{"x":[1,2]}}"#,
        #"{"id":3,"label":"A","type":"m.A"}"#,
        #"{"id":3,"label":"A","type":"m.A","key":null,"scope":null}"#,
    ])
    func declarationsReadAsJSONDecoderReadsThem(json: String) throws {
        let scanned = try scan(json) { scanner throws(JSONScanner.SyntaxError) in try scanner.atomDeclaration() }
        #expect(scanned == (try JSONDecoder().decode(AtomDeclaration.self, from: Data(json.utf8))))
    }

    @Test(arguments: [
        (#"{"label":"A","type":"m.A"}"#, "has no \"id\""),
        (#"{"id":1,"type":"m.A"}"#, "has no \"label\""),
        (#"{"id":"1","label":"A","type":"m.A"}"#, "integer"),
        (#"{"id":1,"label":"A","type":"m.A","key":5}"#, "string"),
    ])
    func malformedDeclarationsAreErrors(json: String, reason: String) {
        #expect {
            try scan(json) { scanner throws(JSONScanner.SyntaxError) in try scanner.atomDeclaration() }
        } throws: { error in
            (error as? JSONScanner.SyntaxError)?.message.contains(reason) == true
        }
    }

    @Test func graphChangesReadEveryMemberAndSkipUnknownOnes() throws {
        let json = #"""
            {"declare":[{"id":2,"label":"B","type":"m.B"}],"created":[2],"released":null,"edgesAdded":[{"from":1,"to":2}],
             "edgesRemoved":[{"to":3,"from":1}],"subsAdded":[{"atom":2,"at":"A.swift:3"}],"subsRemoved":[],"future":[{"x":1}]}
            """#
        let changes = try scan(json) { scanner throws(JSONScanner.SyntaxError) in try TransactionLine.GraphChanges(scanning: &scanner) }
        #expect(changes.declare == [TransactionLine.Declaration(id: 2, type: .spelled("m.B"), label: "B", key: nil, scope: nil)])
        #expect(changes.created == [2])
        #expect(changes.released == nil)
        #expect(changes.edgesAdded == [EdgeEntry(from: 1, to: 2)])
        #expect(changes.edgesRemoved == [EdgeEntry(from: 1, to: 3)])
        #expect(changes.subsAdded == [TransactionLine.Subscription(atom: 2, location: .spelled("A.swift:3"))])
        #expect(changes.subsRemoved == [])
    }

    @Test func subscriptionsNameTheirLocationByNumberOrSpellItOut() throws {
        let json = #"{"subsAdded":[{"atom":2,"loc":3},{"at":"B.swift:4","atom":5}],"subsRemoved":[{"loc":1,"atom":7,"later":0}]}"#
        let changes = try scan(json) { scanner throws(JSONScanner.SyntaxError) in try TransactionLine.GraphChanges(scanning: &scanner) }
        #expect(changes.subsAdded == [.init(atom: 2, location: .number(3)), .init(atom: 5, location: .spelled("B.swift:4"))])
        #expect(changes.subsRemoved == [.init(atom: 7, location: .number(1))])
        // Written back as read.
        #expect(changes.subsAdded?.map(\.json) == [#"{"atom":2,"loc":3}"#, #"{"atom":5,"at":"B.swift:4"}"#])
    }

    @Test(arguments: [
        (#"{"subsAdded":[{"atom":2}]}"#, #"a subscription has no "loc" (nor "at")"#),
        (#"{"subsAdded":[{"atom":2,"loc":3,"at":"A.swift:1"}]}"#, #"a subscription has both "at" and "loc""#),
        (#"{"subsRemoved":[{"loc":3}]}"#, #"a subscription has no "atom""#),
        (#"{"subsRemoved":[{"atom":1,"loc":"3"}]}"#, "integer"),
    ])
    func malformedSubscriptionsAreErrors(json: String, reason: String) {
        #expect {
            try scan(json) { scanner throws(JSONScanner.SyntaxError) in try TransactionLine.GraphChanges(scanning: &scanner) }
        } throws: { error in
            (error as? JSONScanner.SyntaxError)?.message.contains(reason) == true
        }
    }

    /// A subscriber's location number resolves as a write site's does: through the location
    /// lines before it (or the keyframe's `locs`), and one never declared names the line.
    @Test func subscriptionLocationNumbersResolveThroughLocationLines() throws {
        let directory = try TemporaryDirectory()
        let lines = """
            {"format":"atoms-journal","version":4,"minor":2,"created":"x","keyframeInterval":64}
            {"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[],"locs":[{"id":1,"at":"V.swift:9"}]}
            {"type":"loc","id":2,"at":"W.swift:3"}
            [1,0.5,"initialize",0,1,[[1,"v",1]],{"declare":[{"id":1,"label":"A","type":"m.A"}],"created":[1],"subsAdded":[{"atom":1,"loc":2},{"atom":1,"loc":1}]}]
            [2,0.6,"release",1,2,[],{"released":[1],"subsRemoved":[{"atom":1,"loc":2},{"atom":1,"loc":1}]}]

            """
        let journal = try JournalReader(path: try directory.write("j.jsonl", lines))
        let both = [SubscriptionEntry(atom: 1, at: "W.swift:3"), SubscriptionEntry(atom: 1, at: "V.swift:9")]
        #expect(try journal.transaction(1).subsAdded == both)
        #expect(try journal.state(at: 1).subscriptions == Set(both))
        #expect(try journal.state(at: 2).subscriptions.isEmpty)

        // Location 3 is declared nowhere: the line is damaged, for the reader and the summary.
        let undeclared = #"[3,0.7,"initialize",0,1,[[2,"v",1]],{"declare":[{"id":2,"label":"B","type":"m.B"}],"created":[2],"subsAdded":[{"atom":2,"loc":3}]}]"#
        let damaged = try directory.write("damaged.jsonl", lines + undeclared + "\n")
        for read in [{ _ = try JournalReader(path: damaged).transaction(3) }, { _ = try JournalReader(path: damaged).summary() }] as [() throws -> Void] {
            #expect {
                try read()
            } throws: { error in
                guard case .malformedLine(_, 6, let reason) = error as? JournalError else { return false }
                return reason.contains("refers to location 3, which no earlier line declares")
            }
        }
    }

    @Test func aTransactionWithABadGraphNamesItsLine() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("j.jsonl")
        try """
            {"format":"atoms-journal","version":3,"minor":0,"created":"x","keyframeInterval":64}
            {"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[]}
            [1,0.5,"set",0,0,[],{"edgesAdded":[{"from":1}]}]

            """.write(toFile: path, atomically: true, encoding: .utf8)
        // The graph changes are part of the envelope: opening, which reads the last line's,
        // finds it (any reader that reads the line would).
        #expect {
            try JournalReader(path: path).transaction(1)
        } throws: { error in
            guard case .malformedLine(_, 3, let reason) = error as? JournalError else { return false }
            return reason.contains("an edge has no \"to\"")
        }
    }

    @Test func keyframesReadTheirGraphAndLocations() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("j.jsonl")
        try """
            {"format":"atoms-journal","version":4,"minor":0,"created":"x","keyframeInterval":64}
            {"type":"keyframe","seq":0,"atoms":[{"id":1,"label":"A","type":"m.A"},{"id":2,"label":"B","type":"m.B","key":"k"}],"values":[{"id":1,"v":1},{"id":2,"v":[2]}],"edges":[{"from":1,"to":2}],"subs":[{"atom":2,"at":"V.swift:9"}],"locs":[{"id":1,"at":"V.swift:9"}],"extra":true}
            [1,0.5,"set",1,1,[[1,"v",5]]]

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let journal = try JournalReader(path: path)
        let state = try journal.state(at: 1)
        #expect(state.declarations[2]?.displayName == "B[k]")
        #expect(state.values[1]?.v == .number(JSONNumber(5)))
        #expect(state.edges == [EdgeEntry(from: 1, to: 2)])
        #expect(try journal.transaction(1).at == "V.swift:9")
    }
}
