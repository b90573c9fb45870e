/// An effect that performs an action after the atom's value was updated.
///
/// ## Example
/// ```swift
/// func effect(context: CurrentContext) -> some AtomEffect {
///     UpdateEffect {
///         print("updated")
///     }
/// }
/// ```
public struct UpdateEffect: AtomEffect {
    private let action: @MainActor () -> Void

    /// Creates the effect with the action to perform.
    public init(perform action: @MainActor @escaping () -> Void) {
        self.action = action
    }

    /// Performs the action.
    public func updated(context: Context) {
        action()
    }
}
