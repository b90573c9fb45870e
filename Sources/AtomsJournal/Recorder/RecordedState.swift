import Atoms

/// The recorder's mirror of the store, kept from the transactions it records: atom numbers,
/// live atoms' values, edges and subscriptions. Keyframes are written from it, and a changed
/// value is compared with the value before it to record only what changed.
struct RecordedState: Sendable {
    /// Atom numbers by identity; numbers are never reused within a journal.
    private(set) var ids: [AtomIdentity: Int] = [:]
    private(set) var declarations: [String] = []
    /// Values of live atoms, by number.
    var values = ValueTable()
    var edges: [EdgeEntry: Int] = [:]
    var subscriptions: [SubscriptionEntry: Int] = [:]

    /// Numbers by identity instance: the common lookup, without hashing keys. Holds the
    /// identities of live atoms (and of the atoms seeded at the start), which keeps their
    /// instances alive and so their `ObjectIdentifier`s unique.
    private var idsByInstance: [ObjectIdentifier: (identity: AtomIdentity, id: Int)] = [:]
    /// The instance looked up last, with its number; `idsByInstance` keeps the instance alive.
    private var lastInstance: (instance: ObjectIdentifier, id: Int)?

    /// The atom's number, and its declaration when it is new.
    mutating func id(of atom: AtomIdentity) -> (Int, declaration: String?) {
        // Consecutive transactions often change the same atom: skip the lookup then.
        if let last = lastInstance, last.instance == atom.instance {
            return (last.id, nil)
        }
        if let known = idsByInstance[atom.instance] {
            lastInstance = (atom.instance, known.id)
            return (known.id, nil)
        }
        if let id = ids[atom] {
            idsByInstance[atom.instance] = (atom, id)
            return (id, nil)
        }
        let id = ids.count + 1
        ids[atom] = id
        let declaration = AtomDeclaration(id: id, label: atom.label, type: atom.typeName, key: atom.keyDescription, scope: atom.scope?.id).json
        declarations.append(declaration)
        idsByInstance[atom.instance] = (atom, id)
        return (id, declaration)
    }

    /// Stops looking up a released atom's identity instance (its node is gone; a new one will
    /// bring a new instance).
    mutating func forgetInstance(of atom: AtomIdentity) {
        idsByInstance[atom.instance] = nil
        if lastInstance?.instance == atom.instance {
            lastInstance = nil
        }
    }

    /// The keyframe line of the current state, after transaction `seq`; values kept as Swift
    /// values are encoded now.
    func keyframe(seq: Int, encoder: ValueEncoder, locations: [SourceLocation: Int]) -> String {
        // Every location numbered so far: a reader starting at this keyframe knows the
        // locations of the transactions after it without reading what came before.
        KeyframeLine.line(
            seq: seq, atoms: declarations,
            values: values.entries.map { $0.value.encoded(by: encoder).keyedEntry(id: $0.id) },
            edges: edges.keys.sorted(by: EdgeEntry.precedes).map(\.json),
            subs: subscriptions.keys.sorted(by: SubscriptionEntry.precedes).map(\.json),
            locs: locations.sorted { $0.value < $1.value }.map { LocationDeclaration(id: $0.value, at: $0.key.description).json }
        )
    }
}

/// A live atom's value as the recorder keeps it.
enum RecordedValue {
    /// Encoded already: values with a class instance inside, phases, values that are not
    /// `Codable`, redacted ones. The next value is written whole.
    case encoded(EncodedValue)
    /// A copy of a plain value (no class instance inside), which the next value is compared
    /// with; encoded only for keyframes.
    case swift(Any)

    /// The value encoded.
    func encoded(by encoder: ValueEncoder) -> EncodedValue {
        switch self {
        case .encoded(let value): value
        case .swift(let value): encoder.encode(value, redacted: false)
        }
    }
}

/// Recorded values by atom number. Numbers count up from 1 and are never reused, so a list
/// indexed by number replaces a dictionary: the recorder reads and writes a value several times
/// per transaction, and hashing the number cost more than the rest of the lookup.
struct ValueTable: @unchecked Sendable {
    // Unchecked: `.swift` values hold no class instance (`OffThreadEncodingCheck`), so copies
    // of them may move to the recorder's thread.
    private var slots: [RecordedValue?] = []
    /// Swift values replaced or removed, not yet handed back (``takeRetired()``).
    private var retired: [Any] = []

    /// The value of atom `id`, or `nil` when it is not live.
    subscript(id: Int) -> RecordedValue? {
        get {
            id < slots.count ? slots[id] : nil
        }
        set {
            if id >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: id - slots.count + 1))
            }
            if case .swift(let old)? = slots[id] {
                retired.append(old)
            }
            slots[id] = newValue
        }
    }

    /// The Swift values replaced or removed since the last call. The recorder hands them back
    /// to the app's thread to release: that thread allocated their storage, and freeing it
    /// there, as it would without a journal, spares both threads contention on the allocator
    /// and on the elements' reference counts.
    mutating func takeRetired() -> [Any] {
        guard !retired.isEmpty else { return [] }
        defer { retired = [] }
        return retired
    }

    /// The live atoms' numbers and values, by number.
    var entries: [(id: Int, value: RecordedValue)] {
        slots.indices.compactMap { id in slots[id].map { (id, $0) } }
    }
}

extension EdgeEntry {
    var json: String {
        "{\"from\":\(from),\"to\":\(to)}"
    }

    static func precedes(_ lhs: EdgeEntry, _ rhs: EdgeEntry) -> Bool {
        (lhs.from, lhs.to) < (rhs.from, rhs.to)
    }
}

extension SubscriptionEntry {
    var json: String {
        "{\"atom\":\(atom),\"at\":\(JSONLine.quoted(at))}"
    }

    static func precedes(_ lhs: SubscriptionEntry, _ rhs: SubscriptionEntry) -> Bool {
        (lhs.atom, lhs.at) < (rhs.atom, rhs.at)
    }
}
