import Atoms
import Foundation

/// Records every transaction of a store into a journal: a header, an initial keyframe, one
/// line per transaction holding only what changed, and a keyframe every `keyframeInterval`
/// transactions.
///
/// Encoding happens on the main actor as each transaction commits (values are not `Sendable`);
/// the sink writes off the commit path.
///
/// ## Example
/// ```swift
/// let root = AtomRoot()
/// let recorder = try JournalRecorder(path: "session.jsonl")
/// recorder.attach(to: root.store)
/// // … use atoms …
/// try recorder.close()
/// ```
@MainActor
public final class JournalRecorder {
    private let sink: any JournalSink
    private let keyframeInterval: Int
    private let redactedTypes: [ObjectIdentifier]
    private let program: String?
    private let encoder = ValueEncoder()
    private var state = RecordedState()
    private var start = Date()
    private var isAttached = false
    private var transactionsSinceKeyframe = 0
    private var isClosed = false
    /// Locations repeat: keep each one's JSON text.
    private var quotedLocations: [SourceLocation: String] = [:]

    /// Creates a recorder writing to a sink.
    ///
    /// - Parameters:
    ///   - sink: Where lines go (a file, memory).
    ///   - keyframeInterval: Transactions between keyframes; a step is reached by replaying at
    ///     most this many deltas.
    ///   - redacting: Atom types whose values are never written (besides atoms conforming to
    ///     ``JournalRedacted``).
    ///   - program: A name for the recording program, stored in the header.
    public init(
        sink: any JournalSink,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) {
        self.sink = sink
        self.keyframeInterval = max(1, keyframeInterval)
        self.redactedTypes = redacting.map { ObjectIdentifier($0) }
        self.program = program
    }

    /// Creates a recorder writing to a new journal file (mode 0600, replacing any file there).
    ///
    /// - Throws: ``JournalError`` when the file cannot be created.
    public convenience init(
        path: String,
        flush: FlushPolicy = .everyTransaction,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) throws {
        let sink = try FileJournalSink(path: path, flush: flush)
        self.init(sink: sink, keyframeInterval: keyframeInterval, redacting: redacting, program: program)
    }

    /// Starts recording a store: writes the header and a keyframe of its current state, then
    /// every transaction it commits.
    public func attach(to store: AtomStore) {
        precondition(!isAttached, "A JournalRecorder records one store.")
        isAttached = true
        start = Date()
        writeHeader()
        seed(from: store.snapshot())
        sink.write(line: state.keyframe(seq: store.committedTransactions))
        // The store keeps the recorder alive: recording lasts until `close()`, even when the
        // caller keeps no reference.
        store.observeTransactions { transaction in
            self.record(transaction)
        }
    }

    /// Flushes buffered lines to the file and waits until they are written.
    public func flush() throws {
        try sink.flush()
    }

    /// Flushes, syncs the file to disk and closes it. Later transactions are not recorded.
    public func close() throws {
        isClosed = true
        try sink.close()
    }

    private func writeHeader() {
        var line = JSONLine()
        line.field("format", JournalFormat.name)
        line.field("version", JournalFormat.majorVersion)
        line.field("minor", JournalFormat.minorVersion)
        line.field("created", ISO8601DateFormatter().string(from: start))
        line.field("keyframeInterval", keyframeInterval)
        if let program {
            line.field("program", program)
        }
        sink.write(line: line.finished())
    }

    private func isRedacted(_ atom: AtomIdentity) -> Bool {
        atom.atomType is any JournalRedacted.Type || redactedTypes.contains(ObjectIdentifier(atom.atomType))
    }

    /// Fills the mirror with the state the store had when recording started.
    private func seed(from snapshot: Snapshot) {
        for atom in snapshot.atoms {
            let (id, _) = state.id(of: atom)
            state.values[id] = encoder.entry(id: id, value: snapshot.value(of: atom) as Any, redacted: isRedacted(atom))
        }
        for atom in snapshot.atoms {
            let (id, _) = state.id(of: atom)
            for dependency in snapshot.dependencies(of: atom) {
                state.edges[EdgeEntry(from: state.id(of: dependency).0, to: id), default: 0] += 1
            }
            for location in snapshot.subscriptions(of: atom) {
                state.subscriptions[SubscriptionEntry(atom: id, at: location.description), default: 0] += 1
            }
        }
    }

    private func record(_ transaction: AtomTransaction) {
        guard !isClosed else { return }
        var declarations: [String] = []
        func id(_ atom: AtomIdentity) -> Int {
            let (id, declaration) = state.id(of: atom)
            if let declaration { declarations.append(declaration) }
            return id
        }

        // Net the transaction's changes against the mirror: an edge removed and re-added in
        // one transaction is no change.
        let wasLive = Set(state.values.keys)
        var live = wasLive
        var createdIDs: [Int] = []
        var releasedIDs: [Int] = []
        for atom in transaction.created {
            let atomID = id(atom)
            live.insert(atomID)
            createdIDs.append(atomID)
        }
        for atom in transaction.released {
            let atomID = id(atom)
            live.remove(atomID)
            releasedIDs.append(atomID)
        }
        let edges = Self.netChanges(
            &state.edges,
            added: transaction.edgesAdded.map { EdgeEntry(from: id($0.dependency), to: id($0.dependent)) },
            removed: transaction.edgesRemoved.map { EdgeEntry(from: id($0.dependency), to: id($0.dependent)) }
        )
        let subscriptions = Self.netChanges(
            &state.subscriptions,
            added: transaction.subscriptionsAdded.map { SubscriptionEntry(atom: id($0.atom), at: $0.location.description) },
            removed: transaction.subscriptionsRemoved.map { SubscriptionEntry(atom: id($0.atom), at: $0.location.description) }
        )
        var values: [String] = []
        for change in transaction.changedValues {
            let atomID = id(change.atom)
            guard live.contains(atomID) else { continue }
            let entry = encoder.entry(id: atomID, value: change.value, redacted: isRedacted(change.atom))
            state.values[atomID] = entry
            values.append(entry)
        }
        for atomID in wasLive.subtracting(live) {
            state.values[atomID] = nil
        }

        var line = JSONLine()
        line.field("type", "tx")
        line.field("seq", transaction.sequence)
        line.field("t", (transaction.timestamp.timeIntervalSince(start) * 1_000_000).rounded() / 1_000)
        line.field("cause", transaction.cause.rawValue)
        if let origin = transaction.origin {
            line.field("origin", id(origin))
        }
        if let location = transaction.location {
            line.raw("at", quotedLocation(location))
        }
        line.array("declare", declarations)
        line.array("values", values)
        line.array("created", createdIDs.filter { live.contains($0) && !wasLive.contains($0) }.map(String.init))
        line.array("released", releasedIDs.filter { !live.contains($0) && wasLive.contains($0) }.map(String.init))
        line.array("edgesAdded", edges.added.map(\.json))
        line.array("edgesRemoved", edges.removed.map(\.json))
        line.array("subsAdded", subscriptions.added.map(\.json))
        line.array("subsRemoved", subscriptions.removed.map(\.json))
        sink.write(line: line.finished())

        transactionsSinceKeyframe += 1
        if transactionsSinceKeyframe >= keyframeInterval {
            transactionsSinceKeyframe = 0
            sink.write(line: state.keyframe(seq: transaction.sequence))
        }
    }

    private func quotedLocation(_ location: SourceLocation) -> String {
        if let quoted = quotedLocations[location] {
            return quoted
        }
        let quoted = JSONLine.quoted(location.description)
        quotedLocations[location] = quoted
        return quoted
    }

    /// Applies counted additions and removals to a multiset; returns the elements that became
    /// present and those that became absent, in a stable order.
    private nonisolated static func netChanges<Element: Hashable & JSONOrdered>(
        _ counts: inout [Element: Int],
        added: [Element],
        removed: [Element]
    ) -> (added: [Element], removed: [Element]) {
        let touched = Set(added + removed)
        let before = Dictionary(uniqueKeysWithValues: touched.map { ($0, counts[$0, default: 0] > 0) })
        for element in added { counts[element, default: 0] += 1 }
        for element in removed {
            let count = counts[element, default: 0] - 1
            counts[element] = count > 0 ? count : nil
        }
        let nowPresent = touched.filter { counts[$0, default: 0] > 0 && !before[$0]! }
        let nowAbsent = touched.filter { counts[$0, default: 0] == 0 && before[$0]! }
        return (nowPresent.sorted { Element.precedes($0, $1) }, nowAbsent.sorted { Element.precedes($0, $1) })
    }
}

/// Journal entries with a JSON form and a stable order.
protocol JSONOrdered {
    var json: String { get }
    static func precedes(_ lhs: Self, _ rhs: Self) -> Bool
}

extension EdgeEntry: JSONOrdered {}
extension SubscriptionEntry: JSONOrdered {}
