import CAtomsStack

/// Keeps deep synchronous atom computations off the end of the stack.
///
/// Computing an atom runs the user's `value(context:)`, which may watch another uncached atom and
/// so compute it in a nested call. A chain of N atoms therefore nests N computations. Before each
/// computation the store checks the remaining stack and, when it is low, continues on a fresh
/// stack on the same thread, so there is no depth limit and isolation is unchanged.
enum StackGuard {
    /// Remaining stack below which a computation moves to a fresh stack.
    static let reserve = atoms_stack_reserve()
    /// Size of each fresh stack; only the pages actually touched are committed.
    static let freshStackSize = atoms_fresh_stack_size()

    /// Runs `body`, on a fresh stack when the current one is nearly exhausted.
    @MainActor
    static func run<T>(_ body: () -> T) -> T {
        guard atoms_stack_is_low(reserve) != 0 else {
            return body()
        }
        return runOnFreshStack(body)
    }

    /// Runs `body` on a fresh stack (or on the current one when no stack can be mapped).
    @MainActor
    static func runOnFreshStack<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            let call = FreshStackCall<T>(body)
            let context = Unmanaged.passUnretained(call).toOpaque()
            atoms_run_on_fresh_stack(freshStackSize, { pointer in
                let call = Unmanaged<AnyFreshStackCall>.fromOpaque(pointer!).takeUnretainedValue()
                MainActor.assumeIsolated {
                    call.run()
                }
            }, context)
            return withExtendedLifetime(call) { call.result! }
        }
    }
}

/// A type-erased call that a C callback can run.
@MainActor
private class AnyFreshStackCall {
    func run() {}
}

/// The closure to run on a fresh stack, and its result.
@MainActor
private final class FreshStackCall<T>: AnyFreshStackCall {
    let body: () -> T
    var result: T?

    init(_ body: @escaping () -> T) {
        self.body = body
    }

    override func run() {
        result = body()
    }
}
