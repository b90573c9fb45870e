/// A context for testing atoms: it owns a fresh store, watches atoms as a subscriber, and can
/// override atoms and wait for updates.
///
/// As upstream, the context is a subscriber located at the `#fileID`/`#line` of its `init`, and
/// its watches appear in ``snapshot()``'s dependency graph from that location.
///
/// ## Example
/// ```swift
/// @MainActor @Test func filter() {
///     let context = AtomTestContext()
///     context[FilterAtom()] = .completed
///     #expect(context.watch(FilteredTodosAtom()).isEmpty)
/// }
/// ```
@MainActor
public struct AtomTestContext: AtomWatchableContext {
    let state: TestContextState

    /// Creates a test context with a fresh store.
    public init(fileID: String = #fileID, line: UInt = #line) {
        state = TestContextState(location: SourceLocation(fileID: fileID, line: line))
        // A journal recording every context of a test (AtomsTesting's trait) hears of this one;
        // outside such a test this is one task-local read.
        if !TestContextObservation.isPaused {
            TestContextObservation.didCreate?(self)
        }
    }

    /// The context's store, for a journal recorder to attach to.
    package var atomStore: AtomStore {
        AtomStore(engine: state.engine)
    }

    /// Where the context was created (its `init`'s caller).
    package var location: SourceLocation {
        state.location
    }

    /// Whatever records this context (AtomsTesting's journal recording), kept as long as the
    /// context and told when it goes away; `nil` when nothing records it.
    package var recording: (any TestContextRecording)? {
        get { state.recording }
        nonmutating set { state.recording = newValue }
    }

    private var store: StoreContext {
        StoreContext(engine: state.engine, scope: nil)
    }

    /// A closure run whenever an atom watched through this context is updated.
    public var onUpdate: (() -> Void)? {
        get { state.onUpdate }
        nonmutating set { state.onUpdate = newValue }
    }

    /// Waits until an atom watched through this context is updated, up to `duration` seconds
    /// (no limit when `nil`).
    ///
    /// - Returns: Whether an update happened.
    @discardableResult
    public func waitForUpdate(timeout duration: Double? = nil) async -> Bool {
        await state.waitForUpdates(timeout: duration) { true } == .satisfied
    }

    /// Waits until an atom watched through this context is updated, failing after `timeout`.
    ///
    /// - Throws: ``AtomTestContextTimeoutError`` when no update happens within the timeout;
    ///   `CancellationError` when the task is cancelled.
    public func waitForUpdate(within timeout: Double) async throws {
        try await state.waitForUpdates(timeout: timeout) { true }.check(timeout: timeout)
    }

    /// Waits until `atom`'s value satisfies `predicate`, checking after each update, up to
    /// `duration` seconds (no limit when `nil`).
    ///
    /// - Returns: Whether an update brought the atom into that state; `false` when it already
    ///   was, or on timeout.
    @discardableResult
    public func wait<Node: Atom>(
        for atom: Node,
        timeout duration: Double? = nil,
        until predicate: @escaping (Node.Produced) -> Bool
    ) async -> Bool {
        let check = { lookup(atom).map(predicate) ?? false }
        guard !check() else {
            return false
        }
        return await state.waitForUpdates(timeout: duration, until: check) == .satisfied
    }

    /// Waits until `atom`'s value satisfies `predicate`, failing after `timeout` seconds;
    /// returns at once when it already does.
    ///
    /// - Throws: ``AtomTestContextTimeoutError`` on timeout; `CancellationError` on cancellation.
    public func wait<Node: Atom>(
        for atom: Node,
        within timeout: Double,
        until predicate: @escaping (Node.Produced) -> Bool
    ) async throws {
        let check = { lookup(atom).map(predicate) ?? false }
        guard !check() else {
            return
        }
        try await state.waitForUpdates(timeout: timeout, until: check).check(timeout: timeout)
    }

    /// See ``AtomContext/read(_:)``.
    public func read<Node: Atom>(_ atom: Node) -> Node.Produced {
        state.engine.read(atom, in: store)
    }

    /// See ``AtomContext/set(_:for:at:)``.
    public func set<Node: StateAtom>(_ value: Node.Produced, for atom: Node, at location: SourceLocation) {
        state.engine.set(value, for: atom, in: store, location: location)
    }

    /// See ``AtomContext/modify(_:at:body:)``.
    public func modify<Node: StateAtom>(_ atom: Node, at location: SourceLocation, body: (inout Node.Produced) -> Void) {
        state.engine.modify(atom, in: store, location: location, body: body)
    }

    /// See ``AtomContext/refresh(_:at:)-async``.
    @_disfavoredOverload
    @discardableResult
    public func refresh<Node: AsyncAtom>(_ atom: Node, at location: SourceLocation) async -> Node.Produced {
        await state.engine.refresh(atom, in: store, location: location)
    }

    /// See ``AtomContext/refresh(_:at:)-custom``.
    @discardableResult
    public func refresh<Node: Refreshable>(_ atom: Node, at location: SourceLocation) async -> Node.Produced {
        await state.engine.refresh(atom, in: store, location: location)
    }

    /// Makes `value` the cached atom's value as an asynchronous result arrives (`cause`
    /// `.asyncResult`) or a refresh ends (`.refresh`): one transaction, dependents recomputed,
    /// watchers told. A replay delivers recorded results this way instead of running tasks.
    ///
    /// - Returns: Whether the atom was cached; nothing happens otherwise.
    @discardableResult
    package func deliver<Node: Atom>(_ value: Node.Produced, to atom: Node, cause: AtomTransaction.Cause, at location: SourceLocation) -> Bool {
        state.engine.deliver(value, to: atom, in: store, cause: cause, location: location)
    }

    /// See ``AtomContext/reset(_:at:)``.
    public func reset<Node: Atom>(_ atom: Node, at location: SourceLocation) {
        state.engine.reset(atom, in: store, location: location)
    }

    /// Watches an atom from this context; a transaction the watch starts (the atom's
    /// creation) is recorded at the caller's `#fileID`/`#line`.
    @discardableResult
    public func watch<Node: Atom>(_ atom: Node, fileID: String = #fileID, line: UInt = #line) -> Node.Produced {
        state.engine.watch(atom, subscriber: state.subscriber, in: store, location: SourceLocation(fileID: fileID, line: line))
    }

    /// See ``AtomWatchableContext/watch(_:)``: a watch through the protocol, which has no line,
    /// is recorded at the subscriber's creation site.
    @_disfavoredOverload
    @discardableResult
    public func watch<Node: Atom>(_ atom: Node) -> Node.Produced {
        state.engine.watch(atom, subscriber: state.subscriber, in: store, location: nil)
    }

    /// The cached value of an atom, or `nil`; creates nothing and watches nothing.
    public func lookup<Node: Atom>(_ atom: Node) -> Node.Produced? {
        state.engine.lookup(atom, in: store)
    }

    /// Stops watching an atom, as when a view that watched it disappears.
    public func unwatch(_ atom: some Atom) {
        state.engine.unwatch(atom, subscriber: state.subscriber, in: store)
    }

    /// Replaces one atom's value with `value(atom)` from its next creation on.
    public func override<Node: Atom>(_ atom: Node, with value: @MainActor @escaping (Node) -> Node.Produced) {
        state.engine.rootOverrides.addOverride(for: atom, with: value)
    }

    /// Replaces the value of every atom of a type with `value(atom)` from its next creation on.
    public func override<Node: Atom>(_ atomType: Node.Type, with value: @MainActor @escaping (Node) -> Node.Produced) {
        state.engine.rootOverrides.addOverride(for: atomType, with: value)
    }

    /// Captures the values of all cached atoms and the dependency graph, so tests can assert
    /// graph shape.
    public func snapshot() -> Snapshot {
        state.engine.makeSnapshot()
    }

    /// Restores the values and dependency graph captured in a snapshot.
    ///
    /// The restore is recorded at the caller's `#fileID`/`#line`.
    public func restore(_ snapshot: Snapshot, fileID: String = #fileID, line: UInt = #line) {
        state.engine.restore(snapshot, location: SourceLocation(fileID: fileID, line: line))
    }
}
