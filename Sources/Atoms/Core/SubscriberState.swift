/// Something outside the graph that watches atoms: a view context or a test context.
///
/// It remembers the nodes it watches so that, when the last copy of its context goes away
/// (deterministically, on the main actor), every watch is removed and unwatched atoms released.
@MainActor
final class SubscriberState {
    /// Unique within the process; orders notifications deterministically.
    let id: Int
    /// Where the context was created; shown in the dependency graph.
    let location: SourceLocation
    /// Nodes this subscriber watches.
    @exclusivity(unchecked) var nodes: Set<NodeID> = []
    /// The store whose nodes are watched.
    weak var engine: StoreEngine?
    /// Called after a transaction in which a watched atom changed.
    var onUpdate: @MainActor () -> Void

    private static var nextID = 0

    init(location: SourceLocation, engine: StoreEngine, onUpdate: @escaping @MainActor () -> Void) {
        Self.nextID += 1
        self.id = Self.nextID
        self.location = location
        self.engine = engine
        self.onUpdate = onUpdate
    }

    isolated deinit {
        engine?.unsubscribeAll(subscriberID: id, nodes: nodes, location: location)
    }
}
