/// An effect that performs an action after the atom was first computed (or re-computed after a release).
///
/// ## Example
/// ```swift
/// func effect(context: CurrentContext) -> some AtomEffect {
///     InitializeEffect {
///         print("initialized")
///     }
/// }
/// ```
public struct InitializeEffect: AtomEffect {
    private let action: @MainActor () -> Void

    /// Creates the effect with the action to perform.
    public init(perform action: @MainActor @escaping () -> Void) {
        self.action = action
    }

    /// Performs the action.
    public func initialized(context: Context) {
        action()
    }
}
