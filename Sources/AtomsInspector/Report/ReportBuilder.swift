import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Walks a journal's steps once and writes what the report embeds (``ReportData``): the state
/// at the first step as a keyframe, then each transaction's changes as the journal recorded
/// them, with a new keyframe whenever the changes since the last one outweigh it.
struct ReportBuilder {
    /// The journal.
    let journal: InspectedJournal
    /// The first step shown (its state is the first keyframe).
    let first: Int
    /// The last step shown.
    let last: Int
    /// Embedded bytes beyond which building stops with a message suggesting `--from/--to`.
    let sizeLimit: Int

    /// The distinct graphs met, as DOT, in the order met.
    private(set) var graphs: [String] = []
    /// `[step, graph index]` at the first step and wherever the graph changes.
    private var graphAt: [(step: Int, index: Int)] = []
    private var graphIndex: [String: Int] = [:]

    private var locations: [String] = []
    private var locationIndex: [String: Int] = [:]
    private var sites: [[UInt8]] = []
    private var siteIndex: [[UInt8]: Int] = [:]
    private var sets: [[Int]] = []
    private var setIndex: [[Int]: Int] = [:]
    private var declarations: [Int: AtomDeclaration] = [:]

    private var times: [Int] = []
    private var siteColumn: [Int] = []
    private var setColumn: [Int] = []
    private var graphChanges: [UInt8] = []
    private var graphChangeCount = 0
    private var keyframeSteps: [Int] = []
    private var values: [UInt8] = []
    private var keyframes: [UInt8] = []
    /// What each transaction cost, for a journal recorded with timing.
    private var cost: ReportCost?

    /// A builder for steps `first...last` of the journal.
    init(journal: InspectedJournal, first: Int, last: Int, sizeLimit: Int) {
        self.journal = journal
        self.first = first
        self.last = last
        self.sizeLimit = sizeLimit
    }

    /// Reads every step and returns the blocks, with `svgs[i]` drawn for `graphs[i]` (or `nil`
    /// where the page lays the graph out itself).
    mutating func build(svgs: (_ graphs: [String]) -> [String?]) throws(InspectorError) -> ReportData {
        var state = try journal.state(at: first)
        cost = try ReportCost(journal: journal, first: first, last: last)
        for declaration in state.declarations.values { declarations[declaration.id] = declaration }
        let firstTime = first > journal.reader.firstStep ? try journal.transaction(first, decodingValuesOf: []).t : 0
        var previousMicros = Self.micros(firstTime)
        noteGraph(of: state)
        appendKeyframe(state)
        var bytesSinceKeyframe = 0
        var stepsSinceKeyframe = 0
        var lastKeyframeSize = keyframes.count
        var old = state
        try journal.walk(&state, through: last, decodingValuesOf: nil) { record, state throws(InspectorError) in
            let seq = record.seq
            defer { old = state }
            let start = values.count
            appendTransaction(record, before: old, after: state, micros: &previousMicros)
            cost?.append(record, seq: seq, index: seq - first - 1)
            if record.changesGraph || old.liveIDs.count != state.liveIDs.count {
                noteGraph(of: state)
            }
            bytesSinceKeyframe += values.count - start
            stepsSinceKeyframe += 1
            // A keyframe when replaying from the last one would cost more than reading one,
            // or after many steps (the page replays at most a few thousand).
            if seq < last, bytesSinceKeyframe >= max(2 * lastKeyframeSize, 64 << 10) || stepsSinceKeyframe >= 4096 {
                let before = keyframes.count
                appendKeyframe(state)
                lastKeyframeSize = keyframes.count - before
                bytesSinceKeyframe = 0
                stepsSinceKeyframe = 0
            }
            if values.count + keyframes.count + graphChanges.count + (cost?.byteCount ?? 0) > sizeLimit {
                throw tooLarge(reachedAt: seq)
            }
        }
        let drawn = svgs(graphs)
        return ReportData(meta: meta(firstTime: firstTime, svgs: drawn), values: values, keyframes: keyframes)
    }

    private func tooLarge(reachedAt step: Int) -> InspectorError {
        let shown = step - first
        let suggestion = max(first, last - shown / 2)
        return InspectorError(.usage, path: journal.path, "steps \(first)…\(last) make a report of more than \(sizeLimit >> 20) MB (the limit was reached at step \(step)), more than a browser page holds comfortably — report part of the session with --from/--to (e.g. --from \(suggestion)), or raise --max-size")
    }

    private static func micros(_ milliseconds: Double) -> Int {
        let scaled = (milliseconds * 1000).rounded()
        return scaled.isFinite && abs(scaled) < 1e15 ? Int(scaled) : 0
    }

    // MARK: Interning

    private mutating func location(_ text: String) -> Int {
        if let index = locationIndex[text] { return index }
        locationIndex[text] = locations.count
        locations.append(text)
        return locations.count - 1
    }

    private mutating func site(cause: String, origin: Int?, at: String?) -> Int {
        var json: [UInt8] = [UInt8(ascii: "[")]
        json.appendEmbeddedString(cause)
        json.append(UInt8(ascii: ","))
        json.appendDecimal(origin ?? 0)
        json.append(UInt8(ascii: ","))
        json.appendDecimal(at.map { location($0) } ?? -1)
        json.append(UInt8(ascii: "]"))
        if let index = siteIndex[json] { return index }
        siteIndex[json] = sites.count
        sites.append(json)
        return sites.count - 1
    }

    private mutating func changeSet(_ ids: [Int]) -> Int {
        if let index = setIndex[ids] { return index }
        setIndex[ids] = sets.count
        sets.append(ids)
        return sets.count - 1
    }

    private mutating func noteGraph(of state: JournalState) {
        let dot = state.graphDescription(distinguishingFamilies: true)
        let index: Int
        if let known = graphIndex[dot] {
            index = known
        } else {
            index = graphs.count
            graphIndex[dot] = index
            graphs.append(dot)
        }
        if graphAt.last?.index != index {
            graphAt.append((state.step, index))
        }
    }

    // MARK: Values

    /// `v` and `t` entries: a value shown as JSON, or as text with marks.
    private static func appendWhole(_ entry: ValueEntry, to bytes: inout [UInt8]) {
        if entry.isShownAsJSON, let v = entry.v {
            bytes.append(UInt8(ascii: "v"))
            bytes.appendEmbeddedJSON(v)
        } else {
            bytes.append(UInt8(ascii: "t"))
            bytes.appendEmbeddedJSON(.array([.string(entry.displayText), .string(entry.displayMarks.joined(separator: ", "))]))
        }
    }

    private mutating func appendTransaction(_ record: TransactionRecord, before old: JournalState, after new: JournalState, micros previous: inout Int) {
        let now = Self.micros(record.t)
        times.append(now - previous)
        previous = now
        siteColumn.append(site(cause: record.cause, origin: record.origin, at: record.at))
        for declaration in record.declare ?? [] { declarations[declaration.id] = declaration }
        var ids: [Int] = []
        for (index, entry) in (record.values ?? []).enumerated() {
            if index > 0 { values.append(UInt8(ascii: "\t")) }
            ids.append(entry.id)
            guard entry.unchanged != true else {
                values.append(UInt8(ascii: "="))
                continue
            }
            guard let resolved = new.values[entry.id] else {
                // Written and released in one transaction: nothing to show afterwards.
                values.append(UInt8(ascii: "t"))
                values.appendEmbeddedJSON(.array([.string("<released>"), .string("")]))
                continue
            }
            if let previous = old.values[entry.id], previous.isShownAsJSON, resolved.isShownAsJSON, let oldValue = previous.v,
               let change = entry.delta ?? entry.patch.map({ Self.objectDelta(patch: $0, unset: entry.unset) }),
               let positional = try? ValueDelta.positional(change, appliedTo: oldValue) {
                values.append(UInt8(ascii: "d"))
                values.appendEmbeddedJSON(positional)
            } else {
                Self.appendWhole(resolved, to: &values)
            }
        }
        values.append(UInt8(ascii: "\n"))
        setColumn.append(changeSet(ids))
        if record.changesGraph {
            appendGraphChange(record, index: times.count - 1)
        }
    }

    /// A format-2 patch as an object delta.
    private static func objectDelta(patch: [String: JSONValue], unset: [String]?) -> JSONValue {
        .array([.string("o"), .object(patch), .object([:]), .array((unset ?? []).map(JSONValue.string))])
    }

    private mutating func appendGraphChange(_ record: TransactionRecord, index: Int) {
        if graphChangeCount > 0 { graphChanges.append(UInt8(ascii: ",")) }
        graphChangeCount += 1
        graphChanges.append(UInt8(ascii: "["))
        graphChanges.appendDecimal(index)
        graphChanges.append(UInt8(ascii: ","))
        graphChanges.appendArray(record.created ?? []) { $0.appendDecimal($1) }
        graphChanges.append(UInt8(ascii: ","))
        graphChanges.appendArray(record.released ?? []) { $0.appendDecimal($1) }
        for edges in [record.edgesAdded ?? [], record.edgesRemoved ?? []] {
            graphChanges.append(UInt8(ascii: ","))
            graphChanges.appendArray(edges) { bytes, edge in bytes.appendArray([edge.from, edge.to]) { $0.appendDecimal($1) } }
        }
        for subscriptions in [record.subsAdded ?? [], record.subsRemoved ?? []] {
            graphChanges.append(UInt8(ascii: ","))
            let numbered = subscriptions.map { [$0.atom, location($0.at)] }
            graphChanges.appendArray(numbered) { bytes, pair in bytes.appendArray(pair) { $0.appendDecimal($1) } }
        }
        graphChanges.append(UInt8(ascii: "]"))
    }

    private mutating func appendKeyframe(_ state: JournalState) {
        keyframeSteps.append(state.step)
        keyframes.append(contentsOf: #"{"step":"#.utf8)
        keyframes.appendDecimal(state.step)
        keyframes.append(contentsOf: #","values":["#.utf8)
        for (index, id) in state.values.keys.sorted().enumerated() {
            guard let entry = state.values[id] else { continue }
            if index > 0 { keyframes.append(UInt8(ascii: ",")) }
            keyframes.append(UInt8(ascii: "["))
            keyframes.appendDecimal(id)
            keyframes.append(UInt8(ascii: ","))
            var whole: [UInt8] = []
            Self.appendWhole(entry, to: &whole)
            // `v…` / `t…` become `"v",…` / `"t",…` in the array.
            keyframes.append(contentsOf: [UInt8(ascii: "\""), whole[0], UInt8(ascii: "\""), UInt8(ascii: ",")])
            keyframes.append(contentsOf: whole.dropFirst())
            keyframes.append(UInt8(ascii: "]"))
        }
        keyframes.append(contentsOf: #"],"edges":"#.utf8)
        let edges = state.edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        keyframes.appendArray(edges) { bytes, edge in bytes.appendArray([edge.from, edge.to]) { $0.appendDecimal($1) } }
        keyframes.append(contentsOf: #","subs":"#.utf8)
        let subscriptions = state.subscriptions.map { [$0.atom, location($0.at)] }.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
        keyframes.appendArray(subscriptions) { bytes, pair in bytes.appendArray(pair) { $0.appendDecimal($1) } }
        keyframes.append(contentsOf: "}\n".utf8)
    }

    // MARK: Meta

    private func meta(firstTime: Double, svgs: [String?]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: #"{"report":1,"journal":"#.utf8)
        bytes.appendEmbeddedString(FileText.name(of: journal.path))
        bytes.append(contentsOf: #","first":"#.utf8)
        bytes.appendDecimal(first)
        bytes.append(contentsOf: #","last":"#.utf8)
        bytes.appendDecimal(last)
        bytes.append(contentsOf: #","journalLast":"#.utf8)
        bytes.appendDecimal(journal.reader.lastStep)
        bytes.append(contentsOf: #","t0":"#.utf8)
        bytes.appendDecimal(Self.micros(firstTime))
        bytes.append(contentsOf: #","atoms":"#.utf8)
        bytes.appendArray(declarations.keys.sorted()) { bytes, id in
            guard let declaration = declarations[id] else { return }
            bytes.append(UInt8(ascii: "["))
            bytes.appendDecimal(id)
            for text in [declaration.label, declaration.key, declaration.type] {
                bytes.append(UInt8(ascii: ","))
                if let text { bytes.appendEmbeddedString(text) } else { bytes.append(contentsOf: "null".utf8) }
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(contentsOf: #","locs":"#.utf8)
        bytes.appendArray(locations) { $0.appendEmbeddedString($1) }
        bytes.append(contentsOf: #","sites":"#.utf8)
        bytes.appendArray(sites) { $0.append(contentsOf: $1) }
        for (name, column) in [("dt", times), ("site", siteColumn), ("set", setColumn), ("keyframes", keyframeSteps)] {
            bytes.append(contentsOf: ",\"\(name)\":".utf8)
            bytes.appendArray(column) { $0.appendDecimal($1) }
        }
        bytes.append(contentsOf: #","sets":"#.utf8)
        bytes.appendArray(sets) { bytes, ids in bytes.appendArray(ids) { $0.appendDecimal($1) } }
        bytes.append(contentsOf: #","graph":["#.utf8)
        bytes.append(contentsOf: graphChanges)
        bytes.append(contentsOf: #"],"svgs":"#.utf8)
        bytes.appendArray(svgs) { bytes, svg in
            if let svg { bytes.appendEmbeddedString(svg) } else { bytes.append(contentsOf: "null".utf8) }
        }
        bytes.append(contentsOf: #","graphAt":"#.utf8)
        bytes.appendArray(graphAt) { bytes, change in bytes.appendArray([change.step, change.index]) { $0.appendDecimal($1) } }
        cost?.appendMember(to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

extension TransactionRecord {
    /// Whether the transaction created or released atoms, or changed edges or subscriptions.
    var changesGraph: Bool {
        [created?.isEmpty, released?.isEmpty, edgesAdded?.isEmpty, edgesRemoved?.isEmpty, subsAdded?.isEmpty, subsRemoved?.isEmpty]
            .contains { $0 == false }
    }
}
