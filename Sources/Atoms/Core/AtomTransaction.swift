import Foundation

/// One committed transaction of a store: what changed, why, and from where.
///
/// The store reports each transaction, in commit order, to the handlers registered with
/// ``AtomRoot/observeTransactions(_:)`` (or ``AtomStore/observeTransactions(_:)``), after the
/// change is complete and before effects run and subscribers are notified. This is the
/// observation point a journal recorder attaches to; the runtime itself does no I/O.
///
/// A final class with constant properties: handing one record to several observers shares
/// it, where a struct of this size would be copied field by field. (It was a struct in
/// earlier versions; code that reads its properties is unaffected.)
@MainActor
public final class AtomTransaction {
    /// Why a transaction happened.
    public enum Cause: String, Sendable, CaseIterable, Codable {
        /// `set(_:for:)` or a subscript write.
        case set
        /// `modify(_:body:)` or an in-place subscript mutation.
        case modify
        /// `reset(_:)`.
        case reset
        /// `refresh(_:)`.
        case refresh
        /// `restore(_:)` of a snapshot or recorded state.
        case restore
        /// An asynchronous atom's task or sequence delivered a result.
        case asyncResult = "async-result"
        /// A change made by an atom effect.
        case effect
        /// Atoms first watched (created) or read.
        case initialize
        /// Watches removed and unwatched atoms released.
        case release
        /// A value written by atoms-inspect through a recording program's control endpoint (a
        /// live `set`: the attach prompt's `set`, a debugger's `setVariable`), as a subscript
        /// write does. The inspector's jumps are ``restore``s.
        case inspector
    }

    /// A value an atom took in this transaction.
    public struct ValueChange {
        /// The atom.
        public let atom: AtomIdentity
        /// Its value after the transaction.
        public let value: Any
    }

    /// A dependency edge: `dependent` watches `dependency`.
    public struct Edge: Hashable, Sendable {
        /// The watched atom.
        public let dependency: AtomIdentity
        /// The watching atom.
        public let dependent: AtomIdentity
    }

    /// A subscriber (view or test context at a source location) watching an atom.
    public struct SubscriptionChange: Hashable, Sendable {
        /// The watched atom.
        public let atom: AtomIdentity
        /// Where the subscriber was created.
        public let location: SourceLocation
    }

    /// 1 for the store's first committed transaction, increasing by one each time.
    public let sequence: Int
    /// When the transaction committed.
    public let timestamp: Date
    /// Why it happened.
    public let cause: Cause
    /// The atom whose operation started it, when there was one.
    public let origin: AtomIdentity?
    /// The `#fileID`/`#line` of the context that acted, when known.
    public let location: SourceLocation?
    /// Atoms whose values changed (including atoms created, with their first value), with
    /// their values at commit, in the order they last changed.
    public let changedValues: [ValueChange]
    /// Atoms created (first computed) in this transaction.
    public let created: [AtomIdentity]
    /// Atoms released in this transaction.
    public let released: [AtomIdentity]
    /// Dependency edges added.
    public let edgesAdded: [Edge]
    /// Dependency edges removed.
    public let edgesRemoved: [Edge]
    /// Subscriptions added.
    public let subscriptionsAdded: [SubscriptionChange]
    /// Subscriptions removed.
    public let subscriptionsRemoved: [SubscriptionChange]

    init(
        sequence: Int,
        timestamp: Date,
        cause: Cause,
        origin: AtomIdentity?,
        location: SourceLocation?,
        changedValues: [ValueChange],
        created: [AtomIdentity],
        released: [AtomIdentity],
        edgesAdded: [Edge],
        edgesRemoved: [Edge],
        subscriptionsAdded: [SubscriptionChange],
        subscriptionsRemoved: [SubscriptionChange]
    ) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.cause = cause
        self.origin = origin
        self.location = location
        self.changedValues = changedValues
        self.created = created
        self.released = released
        self.edgesAdded = edgesAdded
        self.edgesRemoved = edgesRemoved
        self.subscriptionsAdded = subscriptionsAdded
        self.subscriptionsRemoved = subscriptionsRemoved
    }
}

/// The changes collected while a transaction is open.
///
/// Every change is counted; the lists of what changed are kept only while someone observes
/// transactions (``changes`` is then present), so an unobserved store does no bookkeeping
/// beyond a counter, and starting the next transaction resets a few words.
@MainActor
struct OpenTransaction {
    private(set) var cause: AtomTransaction.Cause = .initialize
    private(set) var origin: AnyAtomNode?
    private(set) var location: SourceLocation?
    /// The number of changes to values or to the graph.
    private(set) var changeCount = 0
    /// What changed, while someone observes transactions.
    private(set) var changes: TransactionChanges?
    /// The lists of the last recorded transaction, emptied, kept for the next one: most
    /// transactions change one value, and allocating seven lists for it cost more than the
    /// change itself.
    private var spareChanges: TransactionChanges?
    /// Effect events to run after commit, in order.
    private(set) var effects: [PendingEffect] = []
    /// Subscribers to notify after commit; one may appear more than once.
    private(set) var subscribers: [SubscriberState] = []
    /// Nodes that may have lost their last watcher, released at commit if nothing watches them.
    private var releaseCandidates: [NodeID] = []

    nonisolated init() {}

    /// Starts collecting, with lists of what changed when `recording`.
    mutating func start(_ cause: AtomTransaction.Cause, origin: AnyAtomNode?, location: SourceLocation?, recording: Bool) {
        self.cause = cause
        self.origin = origin
        self.location = location
        if recording {
            changes = spareChanges ?? TransactionChanges()
            spareChanges = nil
        } else {
            changes = nil
        }
    }

    /// Whether the lists of what changed are kept.
    var isRecording: Bool {
        changes != nil
    }

    /// Whether anything observable changed: a value or the graph.
    var hasChanges: Bool {
        changeCount > 0
    }

    /// Hands over what runs after commit and forgets the rest, ready for the next transaction.
    mutating func finish() -> (effects: [PendingEffect], subscribers: [SubscriberState]) {
        let finished = (effects, subscribers)
        origin = nil
        location = nil
        changeCount = 0
        if let changes {
            // Emptied now, not at the next start, so released nodes are not kept alive.
            changes.removeAll()
            spareChanges = changes
            self.changes = nil
        }
        effects = []
        subscribers = []
        return finished
    }

    mutating func created(_ node: AnyAtomNode) {
        changeCount += 1
        changes?.created.append(node)
    }

    mutating func updated(_ node: AnyAtomNode) {
        changeCount += 1
        changes?.updated.append(node)
        queueEffect(.updated(node), of: node)
    }

    mutating func released(_ node: AnyAtomNode) {
        changeCount += 1
        changes?.released.append(node)
        queueEffect(.released(node), of: node)
    }

    mutating func edgeAdded(from dependency: AnyAtomNode, to dependent: AnyAtomNode) {
        changeCount += 1
        changes?.edgesAdded.append((dependency, dependent))
    }

    mutating func edgeRemoved(from dependency: AnyAtomNode, to dependent: AnyAtomNode) {
        changeCount += 1
        changes?.edgesRemoved.append((dependency, dependent))
    }

    mutating func subscriptionAdded(_ node: AnyAtomNode, _ location: SourceLocation) {
        changeCount += 1
        changes?.subscriptionsAdded.append((node, location))
    }

    mutating func subscriptionRemoved(_ node: AnyAtomNode, _ location: SourceLocation) {
        changeCount += 1
        changes?.subscriptionsRemoved.append((node, location))
    }

    /// Queues a subscriber to notify after commit.
    mutating func queueSubscriber(_ subscriber: SubscriberState) {
        subscribers.append(subscriber)
    }

    /// Notes a node that may have lost its last watcher.
    mutating func addReleaseCandidate(_ id: NodeID) {
        releaseCandidates.append(id)
    }

    /// Takes the candidate noted last, if any.
    mutating func popReleaseCandidate() -> NodeID? {
        releaseCandidates.popLast()
    }

    /// Queues an effect event, for atoms that declare an effect.
    mutating func queueEffect(_ effect: PendingEffect, of node: AnyAtomNode) {
        if node.hasEffect { effects.append(effect) }
    }

    /// The scopes whose atoms were created, updated or released.
    var touchedScopes: Set<ScopeKey> {
        var scopes = Set<ScopeKey>()
        guard let changes else {
            return scopes
        }
        for nodes in [changes.updated, changes.created, changes.released] {
            for node in nodes {
                if let scope = node.scope { scopes.insert(scope) }
            }
        }
        return scopes
    }

    /// The public record; identities are computed here, only when someone observes.
    func record(sequence: Int) -> AtomTransaction {
        let view = committed(sequence: sequence, started: 0)
        let changesGraph = view.changesGraph
        return AtomTransaction(
            sequence: sequence,
            timestamp: Date(),
            cause: cause,
            origin: view.origin,
            location: location,
            changedValues: changes?.changedValues() ?? [],
            created: changesGraph ? view.created : [],
            released: changesGraph ? view.released : [],
            edgesAdded: changesGraph ? view.edgesAdded : [],
            edgesRemoved: changesGraph ? view.edgesRemoved : [],
            subscriptionsAdded: changesGraph ? view.subscriptionsAdded : [],
            subscriptionsRemoved: changesGraph ? view.subscriptionsRemoved : []
        )
    }

    /// The package's view of the transaction, for the journal recorder.
    // Inlined: made out of line, the view is built through value witnesses (about 250
    // instructions of the commit path, measured with callgrind).
    @inline(__always)
    func committed(sequence: Int, started: UInt64) -> CommittedTransaction {
        CommittedTransaction(sequence: sequence, started: started, cause: cause, origin: origin, location: location, changes: changes ?? TransactionChanges())
    }
}

/// The lists of what one transaction changed, kept while someone observes transactions.
@MainActor
final class TransactionChanges {
    // Unchecked exclusivity: touched on every recorded change; never accessed reentrantly.
    // Only ``OpenTransaction`` (in this file) adds to the lists.
    @exclusivity(unchecked) fileprivate(set) var updated: [AnyAtomNode] = []
    @exclusivity(unchecked) fileprivate(set) var created: [AnyAtomNode] = [] { didSet { changesGraph = true } }
    @exclusivity(unchecked) fileprivate(set) var released: [AnyAtomNode] = [] { didSet { changesGraph = true } }
    @exclusivity(unchecked) fileprivate(set) var edgesAdded: [(AnyAtomNode, AnyAtomNode)] = [] { didSet { changesGraph = true } }
    @exclusivity(unchecked) fileprivate(set) var edgesRemoved: [(AnyAtomNode, AnyAtomNode)] = [] { didSet { changesGraph = true } }
    @exclusivity(unchecked) fileprivate(set) var subscriptionsAdded: [(AnyAtomNode, SourceLocation)] = [] { didSet { changesGraph = true } }
    @exclusivity(unchecked) fileprivate(set) var subscriptionsRemoved: [(AnyAtomNode, SourceLocation)] = [] { didSet { changesGraph = true } }

    /// Whether the graph changed: atoms created or released, edges or subscriptions.
    @exclusivity(unchecked) private(set) var changesGraph = false

    /// Empties every list, keeping its capacity.
    func removeAll() {
        if !updated.isEmpty { updated.removeAll(keepingCapacity: true) }
        guard changesGraph else { return }
        created.removeAll(keepingCapacity: true)
        released.removeAll(keepingCapacity: true)
        edgesAdded.removeAll(keepingCapacity: true)
        edgesRemoved.removeAll(keepingCapacity: true)
        subscriptionsAdded.removeAll(keepingCapacity: true)
        subscriptionsRemoved.removeAll(keepingCapacity: true)
        changesGraph = false
    }

    /// Calls `body` with each created or updated atom once, with its value at commit, in the
    /// order each last changed, as ``changedValues()`` lists them.
    func forEachChangedValue(_ body: (AnyAtomNode) -> Void) {
        if created.isEmpty && updated.count == 1 {
            body(updated[0])
            return
        }
        let count = created.count + updated.count
        // Most transactions change a few atoms: find each one's last change by looking ahead,
        // which allocates nothing (the recorder sees every transaction).
        if count <= 16 {
            func node(at index: Int) -> AnyAtomNode {
                index < created.count ? created[index] : updated[index - created.count]
            }
            for index in 0..<count {
                let candidate = node(at: index)
                var changesLater = false
                for later in (index + 1)..<count where node(at: later) === candidate {
                    changesLater = true
                    break
                }
                if !changesLater {
                    body(candidate)
                }
            }
            return
        }
        var seen = Set<ObjectIdentifier>()
        var nodes: [AnyAtomNode] = []
        for node in (created + updated).reversed() where seen.insert(ObjectIdentifier(node)).inserted {
            nodes.append(node)
        }
        for node in nodes.reversed() {
            body(node)
        }
    }

    /// Each created or updated atom once, with its value at commit, in the order each last
    /// changed (a created atom's first value is a change too).
    func changedValues() -> [AtomTransaction.ValueChange] {
        var changes: [AtomTransaction.ValueChange] = []
        forEachChangedValue { node in
            changes.append(AtomTransaction.ValueChange(atom: node.identity, value: node.anyValue))
        }
        return changes
    }
}

/// An effect event waiting for the transaction to commit.
@MainActor
enum PendingEffect {
    case initialized(AnyAtomNode)
    case updated(AnyAtomNode)
    case released(AnyAtomNode)

    /// The atom whose effect this event is for.
    var node: AnyAtomNode {
        switch self {
        case .initialized(let node), .updated(let node), .released(let node): node
        }
    }

    func run() {
        switch self {
        case .initialized(let node): node.effectInitialized()
        case .updated(let node): node.effectUpdated()
        case .released(let node): node.effectReleased()
        }
    }
}
