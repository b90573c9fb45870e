/// An effect that performs an action before the atom is first computed (or re-computed after a release).
///
/// ## Example
/// ```swift
/// func effect(context: CurrentContext) -> some AtomEffect {
///     InitializingEffect {
///         print("initializing")
///     }
/// }
/// ```
public struct InitializingEffect: AtomEffect {
    private let action: @MainActor () -> Void

    /// Creates the effect with the action to perform.
    public init(perform action: @MainActor @escaping () -> Void) {
        self.action = action
    }

    /// Performs the action.
    public func initializing(context: Context) {
        action()
    }
}
