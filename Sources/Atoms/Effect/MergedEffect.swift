/// An effect that forwards every lifecycle event to several effects, in order.
///
/// ## Example
/// ```swift
/// MergedEffect(UpdateEffect { log() }, ReleaseEffect { close() })
/// ```
public struct MergedEffect: AtomEffect {
    private let effects: [any AtomEffect]

    /// Merges the given effects.
    public init<each Effect: AtomEffect>(_ effect: repeat each Effect) {
        var effects: [any AtomEffect] = []
        repeat effects.append(each effect)
        self.effects = effects
    }

    /// Forwards `initializing` to each effect.
    public func initializing(context: Context) {
        for effect in effects { effect.initializing(context: context) }
    }

    /// Forwards `initialized` to each effect.
    public func initialized(context: Context) {
        for effect in effects { effect.initialized(context: context) }
    }

    /// Forwards `updated` to each effect.
    public func updated(context: Context) {
        for effect in effects { effect.updated(context: context) }
    }

    /// Forwards `released` to each effect.
    public func released(context: Context) {
        for effect in effects { effect.released(context: context) }
    }
}
