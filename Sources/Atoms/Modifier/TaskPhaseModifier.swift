public extension TaskAtom {
    /// The task's outcome as an ``AsyncPhase``: `.suspending`, then `.success`.
    ///
    /// ## Example
    /// ```swift
    /// let phase = context.watch(FetchUserAtom().phase)
    /// ```
    var phase: ModifiedAtom<Self, TaskPhaseModifier<Success, Never>> {
        modifier(TaskPhaseModifier())
    }
}

public extension ThrowingTaskAtom {
    /// The task's outcome as an ``AsyncPhase``: `.suspending`, then `.success` or `.failure`.
    ///
    /// ## Example
    /// ```swift
    /// if case .failure(let error) = context.watch(FetchWeatherAtom().phase) { print(error) }
    /// ```
    var phase: ModifiedAtom<Self, TaskPhaseModifier<Success, any Error>> {
        modifier(TaskPhaseModifier())
    }
}

/// A modifier that turns a task atom's `Task` into the ``AsyncPhase`` of its outcome.
///
/// Use `.phase` on a ``TaskAtom`` or ``ThrowingTaskAtom`` instead of using it directly.
public struct TaskPhaseModifier<Success: Sendable, Failure: Error>: AsyncAtomModifier {
    /// The base atom's task.
    public typealias Base = Task<Success, Failure>
    /// The phase of the task.
    public typealias Produced = AsyncPhase<Success, Failure>

    /// The identity of the modifier: every instance is the same.
    public struct Key: Hashable, Sendable {}

    /// The modifier's identity.
    public var key: Key {
        Key()
    }

    /// `.suspending` until the base atom's task finishes, then its outcome.
    public func producer(atom: some Atom<Base>) -> AtomProducer<Produced> {
        AtomProducer { context in
            let task = context.transactionContext.watch(atom)
            let delivery = Task {
                let result = await task.result
                if !Task.isCancelled {
                    context.update(with: AsyncPhase(result))
                }
            }
            context.onTermination { delivery.cancel() }
            return .suspending
        }
    }

    /// Refreshes the base atom (re-running its task) and returns the outcome.
    public func refreshProducer(atom: some AsyncAtom<Base>) -> AtomRefreshProducer<Produced> {
        AtomRefreshProducer { context in
            let task = await context.refresh(atom)
            // Keep watching the refreshed base atom.
            _ = context.transactionContext.watch(atom)
            return AsyncPhase(await task.result)
        }
    }
}

extension TaskPhaseModifier.Key: AtomKeyDescribing {
    var keyDescription: String? { nil }
}
