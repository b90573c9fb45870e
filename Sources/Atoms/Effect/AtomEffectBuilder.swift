/// Composes the effects listed in an `effect(context:)` body into one effect.
///
/// ## Example
/// ```swift
/// func effect(context: CurrentContext) -> some AtomEffect {
///     UpdateEffect { print("Updated") }
///     ReleaseEffect { print("Released") }
/// }
/// ```
@MainActor
@resultBuilder
public enum AtomEffectBuilder {
    /// No effect.
    public static func buildBlock() -> EmptyEffect {
        EmptyEffect()
    }

    /// A single effect, unchanged.
    public static func buildBlock<Effect: AtomEffect>(_ effect: Effect) -> Effect {
        effect
    }

    /// Several effects, merged in order.
    public static func buildBlock<each Effect: AtomEffect>(_ effect: repeat each Effect) -> MergedEffect {
        MergedEffect(repeat each effect)
    }

    /// An effect under `if` without `else`.
    public static func buildIf<Effect: AtomEffect>(_ effect: Effect?) -> OptionalEffect<Effect> {
        OptionalEffect(effect)
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither<First: AtomEffect, Second: AtomEffect>(first: First) -> EitherEffect<First, Second> {
        EitherEffect(.first(first))
    }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither<First: AtomEffect, Second: AtomEffect>(second: Second) -> EitherEffect<First, Second> {
        EitherEffect(.second(second))
    }

    /// An effect under `if #available`.
    public static func buildLimitedAvailability(_ effect: any AtomEffect) -> MergedEffect {
        MergedEffect(AnyEffect(effect))
    }
}

/// An effect that may be absent (`if` without `else` in an effect builder).
public struct OptionalEffect<Wrapped: AtomEffect>: AtomEffect {
    private let wrapped: Wrapped?

    init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }

    /// Forwards to the wrapped effect, if any.
    public func initializing(context: Context) { wrapped?.initializing(context: context) }
    /// Forwards to the wrapped effect, if any.
    public func initialized(context: Context) { wrapped?.initialized(context: context) }
    /// Forwards to the wrapped effect, if any.
    public func updated(context: Context) { wrapped?.updated(context: context) }
    /// Forwards to the wrapped effect, if any.
    public func released(context: Context) { wrapped?.released(context: context) }
}

/// One of two effects (`if`/`else` or `switch` in an effect builder).
public struct EitherEffect<First: AtomEffect, Second: AtomEffect>: AtomEffect {
    enum Storage {
        case first(First)
        case second(Second)
    }

    private let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    private var effect: any AtomEffect {
        switch storage {
        case .first(let effect): effect
        case .second(let effect): effect
        }
    }

    /// Forwards to the chosen effect.
    public func initializing(context: Context) { effect.initializing(context: context) }
    /// Forwards to the chosen effect.
    public func initialized(context: Context) { effect.initialized(context: context) }
    /// Forwards to the chosen effect.
    public func updated(context: Context) { effect.updated(context: context) }
    /// Forwards to the chosen effect.
    public func released(context: Context) { effect.released(context: context) }
}

/// A type-erased effect.
private struct AnyEffect: AtomEffect {
    let base: any AtomEffect

    init(_ base: any AtomEffect) {
        self.base = base
    }

    func initializing(context: Context) { base.initializing(context: context) }
    func initialized(context: Context) { base.initialized(context: context) }
    func updated(context: Context) { base.updated(context: context) }
    func released(context: Context) { base.released(context: context) }
}
