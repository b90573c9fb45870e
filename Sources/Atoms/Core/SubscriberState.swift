/// Something outside the graph that watches atoms: a view context or a test context.
///
/// The nodes it watches hold it (to notify it) and it lists them; its contexts keep it
/// subscribed through a ``SubscriberLifetime``. Nothing refers to it weakly: a weak reference
/// would give it a side table and make every retain of it take the runtime's slow path.
@MainActor
final class SubscriberState {
    /// Unique within the process; orders notifications deterministically.
    let id: Int
    /// Where the context was created; shown in the dependency graph.
    let location: SourceLocation
    /// Nodes this subscriber watches.
    @exclusivity(unchecked) var nodes: Set<NodeID> = []
    /// The number the store's timer gave `location` (0 until it is first timed).
    @exclusivity(unchecked) var timingLocation = 0
    /// Called after a transaction in which a watched atom changed.
    var onUpdate: @MainActor () -> Void

    private static var nextID = 0

    init(location: SourceLocation, onUpdate: @escaping @MainActor () -> Void) {
        Self.nextID += 1
        self.id = Self.nextID
        self.location = location
        self.onUpdate = onUpdate
    }
}

/// Keeps a subscriber's watches while a copy of its context exists.
///
/// When the last copy of the context goes away (deterministically, on the main actor), every
/// watch is removed and the atoms nothing else watches are released.
@MainActor
final class SubscriberLifetime {
    /// The subscriber whose watches this keeps.
    let subscriber: SubscriberState
    /// The store whose nodes it watches.
    let engine: StoreEngine

    init(location: SourceLocation, engine: StoreEngine, onUpdate: @escaping @MainActor () -> Void) {
        self.subscriber = SubscriberState(location: location, onUpdate: onUpdate)
        self.engine = engine
    }

    isolated deinit {
        engine.unsubscribeAll(subscriberID: subscriber.id, nodes: subscriber.nodes, location: subscriber.location)
    }
}
