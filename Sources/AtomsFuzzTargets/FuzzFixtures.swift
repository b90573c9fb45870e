import AtomsInspector
import AtomsJournal
import Foundation

/// The small recorded journal the rules and step targets work on: four atoms, a chain of
/// edges, subscriptions, a family, and transactions that create, change and release atoms.
enum FuzzFixtures {
    static let journalText = """
        {"format":"atoms-journal","version":3,"minor":0,"created":"fuzz","keyframeInterval":4}
        {"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[]}
        {"type":"loc","id":1,"at":"App/Main.swift:10"}
        [1,0.001,"initialize",0,1,[[1,"v",0],[2,"v",true],[3,"v",[1,2]]],{"declare":[{"id":1,"label":"CountAtom","type":"App.CountAtom"},{"id":2,"label":"IsEvenAtom","type":"App.IsEvenAtom"},{"id":3,"label":"ItemAtom","type":"App.ItemAtom","key":"1"}],"created":[1,2,3],"edgesAdded":[{"from":1,"to":2},{"from":2,"to":3}],"subsAdded":[{"atom":2,"at":"App/Main.swift:10"},{"atom":3,"at":"App/Main.swift:10"}]}]
        [2,0.002,"set",1,1,[[1,"v",1],[2,"v",false],[3,"d",["a",[[2,0,[3]]]]]]]
        [3,0.003,"set",1,1,[[1,"v",2],[2,"v",true],[3,"="]]]
        [4,0.004,"initialize",0,1,[[4,"v",{"name":"a","tags":["x"]}]],{"declare":[{"id":4,"label":"ItemAtom","type":"App.ItemAtom","key":"2"}],"created":[4],"edgesAdded":[{"from":1,"to":4}],"subsAdded":[{"atom":4,"at":"App/Main.swift:10"}]}]
        [5,0.005,"release",4,1,[],{"released":[4],"edgesRemoved":[{"from":1,"to":4}]}]

        """

    /// The journal, written once to a scratch file.
    static let journal: InspectedJournal? = {
        let path = FuzzScratch.path("fixture.jsonl")
        let bytes = Array(journalText.utf8)
        guard bytes.withUnsafeBytes({ FuzzScratch.write($0, to: path) }) else {
            return nil
        }
        return try? InspectedJournal(path: path)
    }()

    /// The journal as every `step` session of the process shares it: each state and
    /// transaction is decoded by the first input that needs it, not by every input.
    static let sessionJournal: InspectedJournal? = journal?.memoized(capacity: 1_024)

    /// The state at the journal's fourth step (every atom live).
    static let state: JournalState? = try? journal?.reader.state(at: 4)

    /// One rule of each kind, for the journal target to check any state with.
    static let everyRule: [RuleLine] = (try? RulesParser.parse("""
        edge * -> *
        no-edge *Atom -> Item*
        node *
        no-node Count*
        acyclic
        max-depth 3
        max-nodes 10
        """, file: "fixture.rules")) ?? []
}

/// Scratch files for one fuzzing process.
enum FuzzScratch {
    private static let directory: String = {
        let shared = "/dev/shm"
        let base = FileManager.default.isWritableFile(atPath: shared) ? shared : NSTemporaryDirectory()
        return (base as NSString).appendingPathComponent("atoms-fuzz-\(getpid())")
    }()

    /// A path in this process's scratch directory (made on first use).
    static func path(_ name: String) -> String {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (directory as NSString).appendingPathComponent(name)
    }

    /// Replaces the file with the bytes; returns whether it could.
    static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
