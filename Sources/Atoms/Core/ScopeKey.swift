/// Identifies one scope instance; scoped atoms are stored per scope key.
public struct ScopeKey: Hashable, Sendable, CustomStringConvertible {
    /// A process-unique number of the scope.
    public let id: Int

    package init(id: Int) {
        self.id = id
    }

    /// The scope's number, as it appears after `scope:` in graph labels.
    public var description: String {
        String(id)
    }
}
