import Atoms

/// The recorder's mirror of the store, kept from the transactions it records: atom numbers,
/// live atoms' values, edges and subscriptions. Keyframes are written from it, and a changed
/// value is compared with the value before it to record only what changed.
///
/// The mirror holds the atoms that are live or that an edge or subscription refers to, and
/// those referred to since the last keyframe. Each keyframe first forgets the others, so it
/// declares only what the lines after it need, and the mirror does not grow with atoms that
/// came and went. A forgotten atom that appears again gets a new number, declared again.
struct RecordedState: Sendable {
    /// Atom numbers by identity, of the atoms held.
    private(set) var ids: [AtomIdentity: Int] = [:]
    /// The atoms held, by number: identity and declaration.
    private var atoms: [Int: (identity: AtomIdentity, declaration: String)] = [:]
    /// The number the next new atom gets: numbers are never reused within a journal.
    private var nextID = 1
    /// The slots holding the live atoms' values, by number.
    var values = ValueTable<any RecordedSlot>()
    private(set) var edges: [EdgeEntry: Int] = [:]
    private(set) var subscriptions: [SubscriptionEntry: Int] = [:]
    /// How many distinct edges and subscriptions refer to each atom that has any.
    private var references: [Int: Int] = [:]

    /// Numbers by identity instance: the common lookup, without hashing keys. Holds the
    /// identities of live atoms (and of the atoms seeded at the start), which keeps their
    /// instances alive and so their `ObjectIdentifier`s unique.
    private var idsByInstance: [ObjectIdentifier: (identity: AtomIdentity, id: Int)] = [:]
    /// The instance looked up last, with its number; `idsByInstance` keeps the instance alive.
    private var lastInstance: (instance: ObjectIdentifier, id: Int)?
    /// Increases each time atoms are forgotten: a number a capture slot cached before may no
    /// longer be its atom's.
    private(set) var forgetEpoch = 0

    /// The number of a capture slot's atom, and its declaration when it is new (or was
    /// forgotten): the slot remembers it, so the common case looks nothing up.
    mutating func id(of slot: any RecordedSlot) -> (Int, declaration: AtomDeclaration?) {
        let cached = slot.journalNumber
        if cached.epoch == forgetEpoch {
            return (cached.id, nil)
        }
        let found = id(of: slot.identity)
        slot.journalNumber = (found.0, forgetEpoch)
        return found
    }

    /// The atom's number, and its declaration when it is new (or was forgotten).
    mutating func id(of atom: AtomIdentity) -> (Int, declaration: AtomDeclaration?) {
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
        let id = nextID
        nextID += 1
        ids[atom] = id
        let declaration = AtomDeclaration(id: id, label: atom.label, type: atom.typeName, key: atom.keyDescription, scope: atom.scope?.id)
        atoms[id] = (atom, declaration.json)
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

    /// Applies counted additions and removals of edges; returns those that became present and
    /// those that became absent, in a stable order.
    mutating func changeEdges(added: [EdgeEntry], removed: [EdgeEntry]) -> (added: [EdgeEntry], removed: [EdgeEntry]) {
        let changes = Self.netChanges(&edges, added: added, removed: removed)
        for edge in changes.added { refer(to: edge.from, by: 1); refer(to: edge.to, by: 1) }
        for edge in changes.removed { refer(to: edge.from, by: -1); refer(to: edge.to, by: -1) }
        return changes
    }

    /// Applies counted additions and removals of subscriptions, as ``changeEdges(added:removed:)``.
    mutating func changeSubscriptions(added: [SubscriptionEntry], removed: [SubscriptionEntry]) -> (added: [SubscriptionEntry], removed: [SubscriptionEntry]) {
        let changes = Self.netChanges(&subscriptions, added: added, removed: removed)
        for subscription in changes.added { refer(to: subscription.atom, by: 1) }
        for subscription in changes.removed { refer(to: subscription.atom, by: -1) }
        return changes
    }

    private mutating func refer(to id: Int, by change: Int) {
        let count = references[id, default: 0] + change
        references[id] = count > 0 ? count : nil
    }

    /// Forgets the atoms that are neither live nor referred to by an edge or a subscription:
    /// their numbers, declarations and identities. The lines after the next keyframe never
    /// use their numbers again.
    ///
    /// - Complexity: O(*n*) for the *n* atoms held.
    private mutating func forgetUnneeded() {
        let unneeded = atoms.keys.filter { values[$0] == nil && references[$0] == nil }
        guard !unneeded.isEmpty else { return }
        forgetEpoch += 1
        for id in unneeded {
            if let identity = atoms.removeValue(forKey: id)?.identity {
                ids[identity] = nil
            }
        }
        idsByInstance = idsByInstance.filter { atoms[$0.value.id] != nil }
        if let last = lastInstance, atoms[last.id] == nil {
            lastInstance = nil
        }
    }

    /// How much the mirror holds: atoms numbered, identity instances, live values, edges,
    /// subscriptions and atoms referred to by them, and the value table's buckets.
    var sizes: RecorderMirrorSizes {
        RecorderMirrorSizes(
            atoms: atoms.count, identities: ids.count, instances: idsByInstance.count,
            values: values.count, valueBuckets: values.capacity,
            edges: edges.count, subscriptions: subscriptions.count, referencedAtoms: references.count
        )
    }

    /// The keyframe line of the current state, after transaction `seq`; values set since the
    /// last keyframe are encoded now, the others written as it wrote them. It declares the live atoms and those the graph refers to, having
    /// forgotten the others.
    mutating func keyframe(seq: Int, encoder: ValueEncoder, differ: ValueDiffer, locations: [LocationDeclaration]) -> String {
        forgetUnneeded()
        // Every location (and type name) numbered so far: a reader starting at this keyframe
        // knows the numbers of the transactions after it without reading what came before.
        return KeyframeLine.line(
            seq: seq, atoms: atoms.sorted { $0.key < $1.key }.map(\.value.declaration),
            values: values.keyframeEntries { id, slot in slot.encodedCurrent(by: encoder, differ: differ).keyedEntry(id: id) },
            edges: edges.keys.sorted(by: EdgeEntry.precedes).map(\.json),
            subs: subscriptions.keys.sorted(by: SubscriptionEntry.precedes).map(\.json),
            locs: locations.map(\.json)
        )
    }

    /// Applies counted additions and removals to a multiset; returns the elements that became
    /// present and those that became absent, in a stable order.
    private static func netChanges<Element: Hashable & JSONOrdered>(
        _ counts: inout [Element: Int],
        added: [Element],
        removed: [Element]
    ) -> (added: [Element], removed: [Element]) {
        guard !added.isEmpty || !removed.isEmpty else { return ([], []) }
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

/// What the recorder's mirror holds (``RecorderObservation``): every count stays within the
/// live atoms, the graph, and the atoms referred to since the last keyframe.
package struct RecorderMirrorSizes: Sendable, Equatable {
    /// Atoms numbered and declared.
    package var atoms: Int
    /// Atom numbers by identity.
    package var identities: Int
    /// Atom numbers by identity instance.
    package var instances: Int
    /// Live atoms' values.
    package var values: Int
    /// Buckets of the value table.
    package var valueBuckets: Int
    /// Distinct dependency edges.
    package var edges: Int
    /// Distinct subscriptions.
    package var subscriptions: Int
    /// Atoms an edge or subscription refers to.
    package var referencedAtoms: Int
}

/// What a recorder's thread reports after each batch of transactions it recorded, to an
/// observer given before it attaches (``JournalRecorder/observer``): what its mirror holds,
/// and the last step recorded.
package struct RecorderObservation: Sendable, Equatable {
    /// What the mirror holds.
    package var mirror: RecorderMirrorSizes
    /// The last step whose lines were built.
    package var recordedThrough: Int
}
