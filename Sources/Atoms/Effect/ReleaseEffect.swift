/// An effect that performs an action after the atom was released.
///
/// ## Example
/// ```swift
/// func effect(context: CurrentContext) -> some AtomEffect {
///     ReleaseEffect {
///         print("released")
///     }
/// }
/// ```
public struct ReleaseEffect: AtomEffect {
    private let action: @MainActor () -> Void

    /// Creates the effect with the action to perform.
    public init(perform action: @MainActor @escaping () -> Void) {
        self.action = action
    }

    /// Performs the action.
    public func released(context: Context) {
        action()
    }
}
