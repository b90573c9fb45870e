/// The root of an app's atoms on Linux: what `AtomRoot` is as a SwiftUI view upstream.
///
/// It owns (or shares) an ``AtomStore``, takes overrides and observers, and creates subscriber
/// contexts (``AtomViewContext``) for the parts of the program that watch atoms.
///
/// ## Example
/// ```swift
/// let root = AtomRoot()
///     .override(APIClientAtom()) { _ in StubAPIClient() }
///     .observe { snapshot in print(snapshot.graphDescription()) }
/// let context = root.viewContext { render() }
/// context[CounterAtom()] += 1
/// ```
@MainActor
public final class AtomRoot {
    /// The store holding the atoms.
    public let store: AtomStore

    /// Creates a root over a store (a new one by default).
    public init(storesIn store: AtomStore = AtomStore()) {
        self.store = store
    }

    /// Replaces one atom's value with `value(atom)` wherever it is used.
    @discardableResult
    public func override<Node: Atom>(_ atom: Node, with value: @escaping @MainActor (Node) -> Node.Produced) -> Self {
        store.engine.rootOverrides.addOverride(for: atom, with: value)
        return self
    }

    /// Replaces the value of every atom of a type with `value(atom)` wherever it is used.
    @discardableResult
    public func override<Node: Atom>(_ atomType: Node.Type, with value: @escaping @MainActor (Node) -> Node.Produced) -> Self {
        store.engine.rootOverrides.addOverride(for: atomType, with: value)
        return self
    }

    /// Calls `onUpdate` with a snapshot after every committed update anywhere in the store.
    @discardableResult
    public func observe(_ onUpdate: @escaping @MainActor (Snapshot) -> Void) -> Self {
        store.engine.observers.observeSnapshots(onUpdate)
        return self
    }

    /// Calls `observer` with each committed transaction; see ``AtomStore/observeTransactions(_:)``.
    @discardableResult
    public func observeTransactions(_ observer: @escaping @MainActor (AtomTransaction) -> Void) -> Self {
        store.observeTransactions(observer)
        return self
    }

    /// Creates a subscriber context located at the caller's `#fileID`/`#line`.
    ///
    /// - Parameter onUpdate: Called after each transaction in which an atom the context
    ///   watches changed.
    public func viewContext(
        fileID: String = #fileID,
        line: UInt = #line,
        onUpdate: @escaping @MainActor () -> Void = {}
    ) -> AtomViewContext {
        AtomViewContext(
            store: StoreContext(engine: store.engine, scope: nil),
            location: SourceLocation(fileID: fileID, line: line),
            onUpdate: onUpdate
        )
    }
}
