#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The first line of a journal.
public struct JournalHeader: Codable, Sendable, Equatable {
    /// Always ``JournalFormat/name``.
    public var format: String
    /// The major format version.
    public var version: Int
    /// The minor format version.
    public var minor: Int
    /// Format 4.2 on: `false` when the recorder wrote no timing lines (absent when it did).
    /// In 4.0 and 4.1 the minor version says it: 4.1 journals are timed, 4.0 ones are not.
    public var timed: Bool?
    /// When recording started (ISO 8601, UTC).
    public var created: String
    /// A keyframe follows every this many transactions.
    public var keyframeInterval: Int
    /// The recording program, when known.
    public var program: String?
    /// Format 4, bounded journals: the size limit in bytes the recorder keeps the journal's
    /// segments within; a flight recorder's dump: the bytes the flight recorder keeps.
    public var limit: Int?
    /// Format 4, bounded journals: this segment's number, from 1, in recording order.
    public var segment: Int?
    /// Format 4, bounded journals and flight recorder dumps: the step recording started at
    /// (the first segment's keyframe), so a reader can tell how many transactions the size
    /// limit dropped.
    public var startStep: Int?

    /// Whether the journal has timing lines: 4.1 journals do, 4.0 ones do not, and from 4.2
    /// the header says so (`timed` is `false` without them).
    package var isTimed: Bool {
        guard version == JournalFormat.majorVersion else { return version > JournalFormat.majorVersion }
        if minor >= JournalFormat.timedFieldMinorVersion {
            return timed != false
        }
        return minor >= JournalFormat.timedMinorVersion
    }
}

/// An atom, declared when it first appears (and again, under a new number, when it comes back
/// after a keyframe that no longer declared it), and referred to by its number afterwards.
public struct AtomDeclaration: Codable, Sendable, Hashable {
    /// The atom's number in this journal.
    public var id: Int
    /// The upstream graph label (type name, plus ` scope:<key>` for a scoped atom).
    public var label: String
    /// The module-qualified type name.
    public var type: String
    /// The key of an atom-family member (`nil` when the atom is its own key).
    public var key: String?
    /// The scope the atom is stored in (`nil` at the root).
    public var scope: Int?

    /// Creates a declaration.
    public init(id: Int, label: String, type: String, key: String? = nil, scope: Int? = nil) {
        self.id = id
        self.label = label
        self.type = type
        self.key = key
        self.scope = scope
    }

    /// `label`, with `[key]` for an atom-family member: unique among the journal's atoms
    /// unless two atoms share type, key description and scope.
    public var displayName: String {
        key.map { "\(label)[\($0)]" } ?? label
    }

    /// The identity across processes: type, key and scope.
    public var identityKey: String {
        "\(type)|\(key ?? "")|\(scope.map(String.init) ?? "")"
    }
}

/// A recorded value of one atom.
public struct ValueEntry: Codable, Sendable, Hashable {
    /// The atom's number.
    public var id: Int
    /// The value as JSON, for `Codable` values: restorable.
    public var v: JSONValue?
    /// A readable dump, for values that are not `Codable`: not restorable.
    public var dump: String?
    /// Set when the atom is marked redacted: the value was never written.
    public var redacted: Bool?
    /// For asynchronous values (``Atoms/AsyncPhase``): `suspending`, `success` or `failure`.
    public var phase: String?
    /// Set when `v` is shown for reading only and cannot be restored (a phase's success value).
    public var norestore: Bool?
    /// For a `failure` phase: what the error says of itself (`String(describing:)`), as a
    /// replay's recorded failure describes itself. Absent before recorders wrote it.
    public var error: String?
    /// In a transaction of a format 2 journal: members that replace the same-named members of
    /// the atom's previous value (an object), instead of `v`. ``JournalState`` resolves
    /// patches, so the values of a state always carry `v`.
    public var patch: [String: JSONValue]?
    /// With `patch`: members the new value no longer has.
    public var unset: [String]?
    /// In a transaction of a format 3 journal: a ``ValueDelta`` to apply to the atom's
    /// previous value, instead of `v`. ``JournalState`` resolves deltas.
    public var delta: JSONValue?
    /// In a transaction of a format 3 journal: the atom was written a value equal to its
    /// previous one. ``JournalState`` resolves it to that value.
    public var unchanged: Bool?

    /// Creates an entry.
    public init(
        id: Int,
        v: JSONValue? = nil,
        dump: String? = nil,
        redacted: Bool? = nil,
        phase: String? = nil,
        norestore: Bool? = nil,
        error: String? = nil,
        patch: [String: JSONValue]? = nil,
        unset: [String]? = nil,
        delta: JSONValue? = nil,
        unchanged: Bool? = nil
    ) {
        self.id = id
        self.v = v
        self.dump = dump
        self.redacted = redacted
        self.phase = phase
        self.norestore = norestore
        self.error = error
        self.patch = patch
        self.unset = unset
        self.delta = delta
        self.unchanged = unchanged
    }

    /// Whether the value can be restored.
    public var isRestorable: Bool {
        v != nil && norestore != true && redacted != true
    }

    /// How the value prints: its JSON, its dump, or `<redacted>`.
    public var displayText: String {
        if redacted == true { return "<redacted>" }
        if phase != nil, let dump { return dump }
        if let v { return v.prettyText }
        return dump ?? "<unknown>"
    }
}

/// A subscription: a subscriber at a source location watching an atom.
public struct SubscriptionEntry: Codable, Sendable, Hashable {
    /// The watched atom's number.
    public var atom: Int
    /// `fileID:line` of the subscriber.
    public var at: String

    /// A subscription, as the recorder notes one.
    package init(atom: Int, at: String) {
        self.atom = atom
        self.at = at
    }
}

/// A dependency edge: atom `to` watches atom `from`.
public struct EdgeEntry: Codable, Sendable, Hashable {
    /// The watched atom.
    public var from: Int
    /// The watching atom.
    public var to: Int

    /// An edge, as the recorder notes one.
    package init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}

/// One committed transaction, holding only what changed.
public struct TransactionRecord: Codable, Sendable, Equatable {
    /// Always `"tx"`.
    public var type: String
    /// The transaction's sequence number: 1, 2, 3, …
    public var seq: Int
    /// Milliseconds since recording started.
    public var t: Double
    /// Why it happened (`set`, `modify`, `reset`, `refresh`, `restore`, `async-result`,
    /// `effect`, `initialize`, `release`, `inspector`); any other string is kept as it is.
    public var cause: String
    /// The atom whose operation started it.
    public var origin: Int?
    /// `fileID:line` of the context that acted.
    public var at: String?
    /// Atoms first seen in this transaction, or seen again after a keyframe forgot them.
    public var declare: [AtomDeclaration]?
    /// New values of atoms that changed.
    public var values: [ValueEntry]?
    /// Atoms created.
    public var created: [Int]?
    /// Atoms released.
    public var released: [Int]?
    /// Dependency edges added.
    public var edgesAdded: [EdgeEntry]?
    /// Dependency edges removed.
    public var edgesRemoved: [EdgeEntry]?
    /// Subscriptions added.
    public var subsAdded: [SubscriptionEntry]?
    /// Subscriptions removed.
    public var subsRemoved: [SubscriptionEntry]?
}

/// The full state after a transaction: every live atom, its value, the graph.
public struct KeyframeRecord: Codable, Sendable, Equatable {
    /// Always `"keyframe"`.
    public var type: String
    /// The state is the one after transaction `seq` (0: before the first).
    public var seq: Int
    /// The atoms live here and those the graph refers to: every number a later line uses
    /// is declared here or by that line, so reading can start here.
    public var atoms: [AtomDeclaration]
    /// The live atoms' values.
    public var values: [ValueEntry]
    /// Every dependency edge.
    public var edges: [EdgeEntry]
    /// Every subscription.
    public var subs: [SubscriptionEntry]
    /// Format 4: every source location numbered so far (and, from 4.4, every declared atom's
    /// type name, numbered with them), so reading can start here.
    public var locs: [LocationDeclaration]?
}

/// A source location's number, as a format 4 keyframe lists it; from 4.4, also the number of
/// a declared atom's type name, which transactions' declarations refer to.
public struct LocationDeclaration: Codable, Sendable, Equatable {
    /// The location's number in this journal.
    public var id: Int
    /// `fileID:line`, or a module-qualified type name.
    public var at: String

    /// A location's number, as the recorder declares it.
    package init(id: Int, at: String) {
        self.id = id
        self.at = at
    }
}

/// The last line of a journal whose recorder closed it (format 4).
package struct EndRecord: Codable, Sendable, Equatable {
    /// Always `"end"`.
    package var type: String
    /// The last transaction's `seq` (the last keyframe's when there was none).
    package var seq: Int
    /// Milliseconds since recording started, when the journal was closed.
    package var t: Double
    /// How many times the program waited for its recorder to take what it handed over (absent
    /// when it never did, and in journals recorded before recorders counted).
    package var waits: Int?
}

/// A source location's number (format 2): transactions refer to locations by number.
package struct LocationRecord: Codable, Sendable, Equatable {
    /// Always `"loc"`.
    package var type: String
    /// The location's number in this journal.
    package var id: Int
    /// `fileID:line`.
    package var at: String
}
