import Atoms
import AtomsJournal
import Foundation
import TestSupport

/// Strings that would break or script a page that put them into markup unescaped.
enum Hostile {
    static let scriptEnd = #"</script><script>window.__injected = "script"</script>"#
    static let image = #"<img src=x onerror="window.__injected = 'img'">"#
    static let quotes = #"" ' ` \" &amp; &lt;b&gt; <!-- -->"#
    static let unicode = "héllo \u{1F600} \u{2028}line\u{2029}sep \u{0007}bell"
    static let all = [scriptEnd, image, quotes, unicode]
    static let secret = "s3cr3t-token-never-written"
}

struct HostileNote: Codable, Hashable, Sendable {
    var title: String
    var tags: [String]
    /// Numbers a JavaScript `number` would print differently.
    var measure = 0.1
    var big = UInt64.max
    var tiny = Double.leastNonzeroMagnitude
    var smallest = Int64.min
    /// 2^53 + 1: the first integer a `Double` cannot hold.
    var past53: Int64 = 9_007_199_254_740_993
    var sum = 0.1 + 0.2
    var negativeZero = 1.5
    /// Nested arrays, changed inside the inner ones.
    var grid: [[Double]] = [[0.5], []]
}

struct NoteAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> HostileNote { HostileNote(title: "plain", tags: []) }
}

struct LabelsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Set<String> { ["plain"] }
}

struct ScoresAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [String: Int] { ["plain": 0] }
}

/// A dictionary with `Int64` keys (written as `[k, v, …]`: dictionary deltas) whose values
/// change inside.
struct ShelvesAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [Int64: HostileNote] { [0: HostileNote(title: "plain", tags: []), .min: HostileNote(title: "min", tags: [])] }
}

/// A set of arrays (set deltas, in the canonical order of JSON values).
struct PairsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Set<[Int64]> { [[0, 0]] }
}

struct TokenAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}

/// Sessions whose values, names and locations are hostile, for the report's escaping tests.
@MainActor
enum HostileSessions {
    /// Hostile strings written as struct members, set elements and dictionary keys, numbers a
    /// JavaScript `number` would print differently, deltas inside sets, dictionaries and
    /// nested arrays (so the journal holds object, array, set and dictionary deltas), and a
    /// redacted token.
    static func values(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("hostile-values.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 3, redacting: [TokenAtom.self])
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Hostile/View.swift", line: 7)
        context.watch(NoteAtom())
        context.watch(LabelsAtom())
        context.watch(ScoresAtom())
        context.watch(ShelvesAtom())
        context.watch(PairsAtom())
        context.watch(TokenAtom())
        context[TokenAtom()] = Hostile.secret
        for (index, text) in Hostile.all.enumerated() {
            context[NoteAtom()].title = text
            context[NoteAtom()].tags.append(text)
            context[NoteAtom()].big -= UInt64(index)
            context[NoteAtom()].measure += 0.1
            context[LabelsAtom()].insert(text)
            context[ScoresAtom()][text] = index + 1
            context[ScoresAtom()]["plain"] = index + 10
            context[NoteAtom()].grid[0].append(Double(index) * 0.1 + 0.2)
            context[NoteAtom()].grid[1].insert(-0.0, at: 0)
            // Never from 0.0 to -0.0 alone: the recorder compares with `==`, which calls them equal.
            context[NoteAtom()].negativeZero = index.isMultiple(of: 2) ? -0.0 : 1.5
            context[ShelvesAtom()][Int64(index) + 1] = HostileNote(title: text, tags: [Hostile.scriptEnd])
            context[ShelvesAtom()][0]?.tags.append(text)
            context[ShelvesAtom()][0]?.grid[0][0] += 0.1
            context[PairsAtom()].insert([Int64.min + Int64(index), Int64.max - Int64(index)])
            context[PairsAtom()].remove([Int64(index) - 1, 0])
            context[PairsAtom()].insert([Int64(index), 0])
        }
        context[ShelvesAtom()][1] = nil
        context[ShelvesAtom()][2]?.smallest += 1
        context[LabelsAtom()].remove(Hostile.image)
        context[ScoresAtom()][Hostile.quotes] = nil
        try recorder.close()
        withExtendedLifetime(context) {}
        return path
    }

    /// A hand-written journal whose atom labels, family keys, types and locations are hostile.
    static func names(in directory: TemporaryDirectory) throws -> String {
        func json(_ text: String) -> String { JSONValue.string(text).jsonText }
        let label = Hostile.image
        let key = Hostile.scriptEnd
        let location = Hostile.scriptEnd + ".swift:3"
        let lines = [
            #"{"format":"atoms-journal","version":4,"minor":0,"created":"x","keyframeInterval":64}"#,
            #"{"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[],"locs":[]}"#,
            #"{"type":"loc","id":1,"at":\#(json(location))}"#,
            #"[1,0.5,"set",1,1,[[1,"v",\#(json(Hostile.quotes))],[2,"v",\#(json(Hostile.unicode))]],{"declare":[{"id":1,"label":\#(json(label)),"type":\#(json(Hostile.quotes))},{"id":2,"label":"Member","type":"m.Member","key":\#(json(key))}],"created":[1,2],"edgesAdded":[{"from":1,"to":2}],"subsAdded":[{"atom":2,"at":\#(json(location))}]}]"#,
            #"[2,0.75,\#(json(Hostile.scriptEnd)),2,1,[[2,"v",\#(json(Hostile.image))]]]"#,
        ]
        return try directory.write("hostile-names.jsonl", lines.joined(separator: "\n") + "\n")
    }
}
