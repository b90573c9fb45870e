/// A subscriber's context: what a SwiftUI view's `@ViewContext` is upstream, for any Linux code.
///
/// Create one from an ``AtomRoot`` (or ``AtomScope``). It records the caller's `#fileID`/`#line`,
/// which the dependency graph shows for its watches, and calls `onUpdate` after every
/// transaction in which an atom it watches changed. Its watches last until the last copy of the
/// context is gone (or ``unwatch(_:)``), then atoms nothing else watches are released.
///
/// ## Example
/// ```swift
/// let root = AtomRoot()
/// let context = root.viewContext { print("counter changed") }
/// print(context.watch(CounterAtom()))  // 0
/// context[CounterAtom()] += 1          // prints "counter changed"
/// ```
@MainActor
public struct AtomViewContext: AtomWatchableContext {
    let store: StoreContext
    let lifetime: SubscriberLifetime

    init(store: StoreContext, location: SourceLocation, onUpdate: @escaping @MainActor () -> Void) {
        self.store = store
        self.lifetime = SubscriberLifetime(location: location, engine: store.engine, onUpdate: onUpdate)
    }

    /// The subscriber this context's watches belong to.
    var subscriber: SubscriberState {
        lifetime.subscriber
    }

    /// Where this context was created.
    public var location: SourceLocation {
        subscriber.location
    }

    /// See ``AtomContext/read(_:)``.
    public func read<Node: Atom>(_ atom: Node) -> Node.Produced {
        store.engine.read(atom, in: store)
    }

    /// See ``AtomContext/set(_:for:at:)``.
    public func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node, at location: SourceLocation) {
        store.engine.set(value, for: atom, in: store, location: location)
    }

    /// See ``AtomContext/modify(_:at:body:)``.
    public func modify<Node: StateAtom>(_ atom: Node, at location: SourceLocation, body: (inout Node.Produced) -> Void) {
        store.engine.modify(atom, in: store, location: location, body: body)
    }

    /// See ``AtomContext/refresh(_:at:)-async``.
    @_disfavoredOverload
    @discardableResult
    public func refresh<Node: AsyncAtom>(_ atom: Node, at location: SourceLocation) async -> Node.Produced {
        await store.engine.refresh(atom, in: store, location: location)
    }

    /// See ``AtomContext/refresh(_:at:)-custom``.
    @discardableResult
    public func refresh<Node: Refreshable>(_ atom: Node, at location: SourceLocation) async -> Node.Produced {
        await store.engine.refresh(atom, in: store, location: location)
    }

    /// See ``AtomContext/reset(_:at:)``.
    public func reset<Node: Atom>(_ atom: Node, at location: SourceLocation) {
        store.engine.reset(atom, in: store, location: location)
    }

    /// Watches an atom from this subscriber; a transaction the watch starts (the atom's
    /// creation) is recorded at the caller's `#fileID`/`#line`.
    @discardableResult
    public func watch<Node: Atom>(_ atom: Node, fileID: String = #fileID, line: UInt = #line) -> Node.Produced {
        store.engine.watch(atom, subscriber: subscriber, in: store, location: SourceLocation(fileID: fileID, line: line))
    }

    /// See ``AtomWatchableContext/watch(_:)``: a watch through the protocol, which has no line,
    /// is recorded at the subscriber's creation site.
    @_disfavoredOverload
    @discardableResult
    public func watch<Node: Atom>(_ atom: Node) -> Node.Produced {
        store.engine.watch(atom, subscriber: subscriber, in: store, location: nil)
    }

    /// Stops watching an atom from this subscriber (a Linux addition: a view stops watching
    /// when it disappears; a program says so explicitly).
    public func unwatch(_ atom: some Atom) {
        store.engine.unwatch(atom, subscriber: subscriber, in: store)
    }

    /// For debugging, captures the values of all cached atoms and the dependency graph.
    @discardableResult
    public func snapshot() -> Snapshot {
        store.engine.makeSnapshot()
    }

    /// For debugging, restores the atom values and dependency graph captured in a snapshot.
    ///
    /// Atoms and dependencies no longer watched from anywhere are then released, and watchers
    /// of restored atoms are notified.
    ///
    /// The restore is recorded at the caller's `#fileID`/`#line`.
    public func restore(_ snapshot: Snapshot, fileID: String = #fileID, line: UInt = #line) {
        store.engine.restore(snapshot, location: SourceLocation(fileID: fileID, line: line))
    }
}
