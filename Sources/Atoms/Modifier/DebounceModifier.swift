public extension Atom {
    /// The atom's value, delivered only once it has stopped changing for `duration` seconds.
    ///
    /// The first value is delivered at once; while updates keep arriving, watchers keep seeing
    /// the last delivered value.
    ///
    /// ## Example
    /// ```swift
    /// let query = context.watch(QueryAtom().debounce(for: 0.3))
    /// ```
    ///
    /// - Parameter duration: Seconds the value must stay unchanged before it is delivered.
    /// - Returns: An atom delivering the settled value.
    func debounce(for duration: Double) -> ModifiedAtom<Self, DebounceModifier<Produced>> {
        modifier(DebounceModifier(duration: duration, clock: DebounceClock.system))
    }
}

/// A modifier that delays delivering a value until it settles.
///
/// Use ``Atom/debounce(for:)`` instead of using this modifier directly.
public struct DebounceModifier<Produced>: AtomModifier {
    /// The base atom's value type.
    public typealias Base = Produced

    /// The identity of the modifier: its duration.
    public struct Key: Hashable, Sendable {
        fileprivate let duration: Double

        fileprivate init(duration: Double) {
            self.duration = duration
        }
    }

    private let duration: Double
    private let clock: DebounceClock

    init(duration: Double, clock: DebounceClock) {
        self.duration = duration
        self.clock = clock
    }

    /// The modifier's identity.
    public var key: Key {
        Key(duration: duration)
    }

    /// Delivers the first value at once, and later values after they settle.
    public func producer(atom: some Atom<Base>) -> AtomProducer<Produced> {
        AtomProducer { context in
            let value = context.transactionContext.watch(atom)
            let storage = context.storage { DebounceStorage<Base>() }
            guard let settled = storage.settled else {
                storage.settled = value
                return value
            }
            // Hold the settled value back from watchers; deliver the new one once no further
            // update supersedes this computation for `duration`.
            context.holdPropagation()
            let sleep = clock.sleep
            let seconds = duration
            let delivery = Task {
                try? await sleep(seconds)
                if !Task.isCancelled {
                    storage.settled = value
                    context.update(with: value)
                }
            }
            context.onTermination { delivery.cancel() }
            return settled
        }
    }
}

/// The last value a debounced atom delivered.
@MainActor
private final class DebounceStorage<Base> {
    var settled: Base?
}

/// How a debounce waits; tests substitute a controllable clock.
struct DebounceClock: Sendable {
    let sleep: @Sendable (Double) async throws -> Void

    static let system = DebounceClock { seconds in
        try await Task.sleep(for: .seconds(seconds))
    }
}

extension DebounceModifier.Key: AtomKeyDescribing {
    var keyDescription: String? { "debounce \(duration)s" }
}
