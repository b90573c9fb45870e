/// What an async wait in a test suspends on until something it watches changes (a program's
/// output, its exit, a message read by a reader thread) or its deadline passes.
///
/// A waiting test holds no thread: neither the main actor nor one of the few cooperative
/// threads, which other tests need meanwhile. Whoever changes the watched state calls
/// ``signal()``; a waiter reads ``version``, checks its condition, and if it does not hold yet
/// calls ``wait(after:until:)`` with the version it read, so no change between the check and
/// the wait is missed.
public final class ChangeSignal: Sendable {
    private struct Waiter {
        let after: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var version = 0
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
        /// Waits given up (their deadline passed, or their task was cancelled) before they were
        /// registered.
        var abandoned: Set<Int> = []
    }

    private let state = Locked(State())

    public init() {}

    /// How many changes were signalled so far.
    public var version: Int {
        state.withLock { $0.version }
    }

    /// Records a change and wakes every waiter.
    public func signal() {
        let woken = state.withLock { state in
            state.version += 1
            let woken = state.waiters.values.map(\.continuation)
            state.waiters.removeAll()
            return woken
        }
        for continuation in woken {
            continuation.resume()
        }
    }

    /// Suspends until a change after `version` is signalled, `deadline` passes, or the task is
    /// cancelled, whichever comes first.
    public nonisolated(nonsending) func wait(after version: Int, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await self.suspend(id, after: version)
                } onCancel: {
                    self.abandon(id)
                }
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                self.abandon(id)
            }
            await group.next()
            group.cancelAll()
        }
        state.withLock { _ = $0.abandoned.remove(id) }
    }

    private func suspend(_ id: Int, after version: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.version > version || state.abandoned.contains(id) {
                    return true
                }
                state.waiters[id] = Waiter(after: version, continuation: continuation)
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }

    private func abandon(_ id: Int) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.abandoned.insert(id)
                return nil as Waiter?
            }
            return waiter
        }
        waiter?.continuation.resume()
    }
}

extension ChangeSignal {
    /// Suspends until `condition` holds, re-checking it after every signalled change; `false`
    /// when `timeout` seconds pass first (or the task is cancelled).
    public nonisolated(nonsending) func wait(timeout: Double, until condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = Patience.deadline(after: timeout)
        while true {
            let seen = version
            if try condition() {
                return true
            }
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                return false
            }
            await wait(after: seen, until: deadline)
        }
    }
}
