/// The phase of an asynchronous operation: still running, succeeded, or failed.
///
/// ## Example
/// ```swift
/// switch context.watch(FetchMoviesAtom().phase) {
/// case .suspending: print("Loading")
/// case .success(let movies): print(movies)
/// case .failure(let error): print(error)
/// }
/// ```
public enum AsyncPhase<Success, Failure: Error> {
    /// The operation has not finished yet.
    case suspending
    /// The operation succeeded with a value.
    case success(Success)
    /// The operation failed with an error.
    case failure(Failure)

    /// The phase of a finished operation's result.
    public init(_ result: Result<Success, Failure>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = .failure(error)
        }
    }

    /// Runs an operation on the caller's actor and captures its outcome.
    ///
    /// Upstream spells this ``init(isolation:catching:)``, which `AsyncPhase { … }` with a
    /// trailing closure resolves to; this unlabeled form is kept for source written against it.
    @_disfavoredOverload
    public init(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> Success
    ) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }

    /// Runs an operation on the caller's actor and captures its outcome: a value as
    /// `.success`, a thrown error as `.failure`.
    ///
    /// The operation inherits the caller's isolation, so a main-actor or actor-isolated body
    /// runs there and may use that actor's state without sending it.
    ///
    /// ```swift
    /// @MainActor func load() async {
    ///     let phase = await AsyncPhase(catching: { () throws(FetchError) in try await model.fetch() })
    /// }
    /// ```
    public init(
        isolation: isolated (any Actor)? = #isolation,
        catching body: () async throws(Failure) -> Success
    ) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }

    /// Whether the operation is still running.
    public var isSuspending: Bool {
        if case .suspending = self { return true }
        return false
    }

    /// Whether the operation succeeded.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// Whether the operation failed.
    public var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    /// The value, when the operation succeeded.
    public var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, when the operation failed.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Transforms a success value.
    public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> AsyncPhase<NewSuccess, Failure> {
        flatMap { .success(transform($0)) }
    }

    /// Transforms an error.
    public func mapError<NewFailure>(_ transform: (Failure) -> NewFailure) -> AsyncPhase<Success, NewFailure> {
        flatMapError { .failure(transform($0)) }
    }

    /// Transforms a success value into another phase.
    public func flatMap<NewSuccess>(_ transform: (Success) -> AsyncPhase<NewSuccess, Failure>) -> AsyncPhase<NewSuccess, Failure> {
        switch self {
        case .suspending: .suspending
        case .success(let value): transform(value)
        case .failure(let error): .failure(error)
        }
    }

    /// Transforms an error into another phase.
    public func flatMapError<NewFailure>(_ transform: (Failure) -> AsyncPhase<Success, NewFailure>) -> AsyncPhase<Success, NewFailure> {
        switch self {
        case .suspending: .suspending
        case .success(let value): .success(value)
        case .failure(let error): transform(error)
        }
    }
}

extension AsyncPhase: Sendable where Success: Sendable {}
extension AsyncPhase: Equatable where Success: Equatable, Failure: Equatable {}
extension AsyncPhase: Hashable where Success: Hashable, Failure: Hashable {}
