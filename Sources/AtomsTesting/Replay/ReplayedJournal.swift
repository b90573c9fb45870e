import Atoms
import AtomsInspector
import AtomsJournal
import Foundation

/// The journal of a replay that failed: the recorded transactions up to the step where it
/// failed, the values there as today's atoms hold them.
///
/// Every step before that one matched the recording (the replay stops at the first
/// disagreement), so the transactions before it are the recorded ones; written with each
/// value whole, they read the same. `atoms-inspect compare RECORDED REPLAYED` then finds the
/// failing step and diffs today's values against the recorded ones.
enum ReplayedJournal {
    /// Writes the replay's journal where the test's journals go (kept, as a failing test's
    /// journal is): beside the context's own journal when it records one, else in the folder
    /// of the `.atomJournal` trait's policy, else in the configured folder.
    ///
    /// - Parameters:
    ///   - journal: The recorded journal.
    ///   - step: The step where the replay failed.
    ///   - today: Today's values at that step, by the journal's atom numbers.
    ///   - context: The context replayed in: the file is named after its journal's test, or
    ///     the current test.
    /// - Returns: The file's path, or why it could not be written.
    @MainActor
    static func write(_ journal: InspectedJournal, through step: Int, today: [Int: ValueEntry], context: AtomTestContext) -> (path: String?, error: String?) {
        let path: String
        do {
            let name = (context.recording as? JournalRecording)?.testName ?? TestName.current(creatingAt: context.location)
            path = try TestJournalFolder.path(for: name + ".replayed", in: folder(for: context))
        } catch {
            return (nil, "\(error)")
        }
        do {
            try OutputFile.write(try lines(journal, through: step, today: today), to: path, permissions: 0o600)
            return (path, nil)
        } catch {
            return (nil, InspectorError(error).description)
        }
    }

    /// Where the test's journals go.
    @MainActor
    static func folder(for context: AtomTestContext?) -> String {
        if let recording = context?.recording as? JournalRecording {
            return URL(fileURLWithPath: recording.path).deletingLastPathComponent().path
        }
        if let scope = TestJournalScope.current, case .folder(let folder?) = scope.journal.destination {
            return folder
        }
        return TestJournalFolder.current
    }

    /// The journal's lines, each ending with a newline.
    static func lines(_ journal: InspectedJournal, through step: Int, today: [Int: ValueEntry]) throws(JournalError) -> [UInt8] {
        let reader = journal.reader
        var output: [UInt8] = []
        func append(_ line: String) {
            output.append(contentsOf: line.utf8)
            output.append(UInt8(ascii: "\n"))
        }
        let header = reader.header
        append(JournalHeaderLine(created: header.created, keyframeInterval: header.keyframeInterval, program: "replay of \(header.program ?? reader.path)", limit: nil, timed: false).line(segment: nil))
        var state = try reader.state(at: reader.firstStep)
        let atFirst = step == reader.firstStep ? today : [:]
        append(KeyframeLine.line(
            seq: state.step,
            atoms: state.declarations.values.sorted { $0.id < $1.id }.map(\.json),
            values: state.values.keys.sorted().map { keyedEntry(atFirst[$0] ?? state.values[$0]!) },
            edges: state.edges.sorted(by: EdgeEntry.precedes).map(\.json),
            subs: state.subscriptions.sorted(by: SubscriptionEntry.precedes).map(\.json),
            locs: []
        ))
        var locations: [String: Int] = [:]
        var time = "0"
        if step > reader.firstStep {
            // Every transaction in order, on the engine every command's walk takes.
            let walk = TransactionWalk(everyTransactionOf: reader, after: state, decodingValuesOf: nil)
            while walk.nextStep <= step {
                let seq = walk.nextStep
                // Never nil: a walk of every transaction skips none.
                guard let record = try walk.advance(&state) else { continue }
                // A location's line comes before the first transaction that uses it: its
                // write site first, then its subscribers' (as the recorder writes them).
                func number(_ at: String) -> Int {
                    if let known = locations[at] { return known }
                    let number = locations.count + 1
                    locations[at] = number
                    append(LocationRecord.line(id: number, at: at))
                    return number
                }
                let location = record.at.map(number) ?? 0
                for subscription in (record.subsAdded ?? []) + (record.subsRemoved ?? []) {
                    _ = number(subscription.at)
                }
                for declaration in record.declare ?? [] {
                    _ = number(declaration.type)
                }
                time = String(record.t)
                var line = transactionLine(record, state: state, today: seq == step ? today : [:], location: location, locations: locations)
                line.append(UInt8(ascii: "\n"))
                output += line
            }
        }
        append(EndRecord.line(seq: step, time: Array(time.utf8)))
        return output
    }

    /// A transaction line with every value whole (today's where given), and the recorded
    /// graph changes, subscribers' locations by their numbers in `locations`.
    private static func transactionLine(_ record: TransactionRecord, state: JournalState, today: [Int: ValueEntry], location: Int, locations: [String: Int]) -> [UInt8] {
        var line: [UInt8] = []
        TransactionLine.appendEnvelope(seq: record.seq, time: Array(String(record.t).utf8), cause: record.cause, origin: record.origin ?? 0, at: location, to: &line)
        let recorded = record.values ?? []
        let added = today.keys.filter { id in !recorded.contains { $0.id == id } }.sorted()
        for (index, entry) in (recorded + added.map { ValueEntry(id: $0) }).enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            if let value = today[entry.id] ?? state.values[entry.id] {
                appendWhole(value, id: entry.id, to: &line)
            } else {
                // Written and released in one transaction: nothing to resolve it against.
                appendWhole(entry, id: entry.id, to: &line)
            }
        }
        line.append(UInt8(ascii: "]"))
        // Every location and type name has its number: `locations` numbers them before the line.
        var graph = PositionalGraph()
        graph.declare = (record.declare ?? []).map { PositionalGraph.Declaration($0, type: locations[$0.type] ?? 0) }
        (graph.created, graph.released) = (record.created ?? [], record.released ?? [])
        (graph.edgesAdded, graph.edgesRemoved) = (record.edgesAdded ?? [], record.edgesRemoved ?? [])
        graph.subsAdded = (record.subsAdded ?? []).map { ($0.atom, locations[$0.at] ?? 0) }
        graph.subsRemoved = (record.subsRemoved ?? []).map { ($0.atom, locations[$0.at] ?? 0) }
        if !graph.isEmpty {
            line.append(UInt8(ascii: ","))
            graph.append(to: &line)
        }
        line.append(UInt8(ascii: "]"))
        return line
    }

    /// `[id,"v",json]` for a plain JSON value, a keyed entry for anything else.
    private static func appendWhole(_ entry: ValueEntry, id: Int, to line: inout [UInt8]) {
        if let v = entry.v, entry.dump == nil, entry.phase == nil, entry.redacted == nil, entry.norestore == nil {
            var json: [UInt8] = []
            v.writeJSON(into: &json)
            TransactionLine.appendWhole(id: id, json: json, to: &line)
        } else {
            TransactionLine.appendKeyed(id: id, fields: Array(fields(of: entry).utf8), to: &line)
        }
    }

    /// `{"id":N,…}`, as a keyframe lists values.
    private static func keyedEntry(_ entry: ValueEntry) -> String {
        "{\"id\":\(entry.id)," + fields(of: entry) + "}"
    }

    /// The members of a value entry after its `id`, in the recorder's order.
    private static func fields(of entry: ValueEntry) -> String {
        var fields = JSONLine()
        if entry.redacted == true { fields.field("redacted", true) }
        if let phase = entry.phase { fields.field("phase", phase) }
        if let error = entry.error { fields.field("error", error) }
        if let v = entry.v { fields.raw("v", v.jsonText) }
        if entry.norestore == true { fields.field("norestore", true) }
        if let dump = entry.dump { fields.field("dump", dump) }
        return fields.members
    }
}
