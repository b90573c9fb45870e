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

/// Hands out scope keys; each store counts from 1.
@MainActor
final class ScopeKeyGenerator {
    private var next = 1

    nonisolated init() {}

    func make() -> ScopeKey {
        defer { next += 1 }
        return ScopeKey(id: next)
    }
}
