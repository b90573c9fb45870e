/// Starting tasks whose body runs synchronously on the current (main) actor until its first
/// suspension.
///
/// Async atoms call `value(context:)` in a task; starting it immediately means the atoms it
/// watches before its first `await` are dependencies by the time the computation returns, so a
/// recomputation never releases them only to re-create them a moment later.
enum ImmediateTask {
    /// A non-throwing task.
    @MainActor
    static func start<Success: Sendable>(_ body: @escaping @MainActor () async -> Success) -> Task<Success, Never> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
            return Task.immediate { await body() }
        }
        return Task { await body() }
    }

    /// A throwing task.
    @MainActor
    static func start<Success: Sendable>(_ body: @escaping @MainActor () async throws -> Success) -> Task<Success, any Error> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
            return Task.immediate { try await body() }
        }
        return Task { try await body() }
    }
}
