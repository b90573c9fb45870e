/// The shared state behind the copies of one ``AtomTestContext``.
@MainActor
final class TestContextState {
    let engine = StoreEngine()
    /// Keeps the context's watches until the last copy of the context is gone.
    let lifetime: SubscriberLifetime
    /// Who hears about updates; the subscriber holds it, not this state, so there is no cycle.
    private let listeners: TestContextListeners
    /// What records the context, if anything (see ``AtomTestContext/recording``).
    var recording: (any TestContextRecording)?

    init(location: SourceLocation) {
        let listeners = TestContextListeners()
        self.listeners = listeners
        lifetime = SubscriberLifetime(location: location, engine: engine) {
            listeners.didUpdate()
        }
    }

    // Before the context's watches are released: the record ends at the state the test left.
    isolated deinit {
        recording?.contextWillEnd()
    }

    /// The subscriber the context's watches belong to.
    var subscriber: SubscriberState {
        lifetime.subscriber
    }

    /// Where the context was created (its `init`'s caller).
    var location: SourceLocation {
        lifetime.subscriber.location
    }

    /// Run whenever an atom watched through the context is updated.
    var onUpdate: (() -> Void)? {
        get { listeners.onUpdate }
        set { listeners.onUpdate = newValue }
    }

    /// Waits for updates until `done()` holds after one, the timeout fires, or the task is
    /// cancelled.
    func waitForUpdates(timeout: Double?, until done: () -> Bool) async -> WaitOutcome {
        await listeners.waitForUpdates(timeout: timeout, until: done)
    }
}

/// The test context's `onUpdate` and the tasks waiting for an update.
@MainActor
final class TestContextListeners {
    var onUpdate: (() -> Void)?
    private var waiters: [Int: AsyncStream<WaitEvent>.Continuation] = [:]
    private var nextWaiter = 0

    func didUpdate() {
        onUpdate?()
        for waiter in waiters.values {
            waiter.yield(.update)
        }
    }

    /// Waits for updates until `done()` holds after one, the timeout fires, or the task is
    /// cancelled.
    func waitForUpdates(timeout: Double?, until done: () -> Bool) async -> WaitOutcome {
        let (events, continuation) = AsyncStream<WaitEvent>.makeStream()
        nextWaiter += 1
        let id = nextWaiter
        waiters[id] = continuation
        let timer = timeout.map { seconds in
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                continuation.yield(.timeout)
            }
        }
        defer {
            timer?.cancel()
            waiters[id] = nil
            continuation.finish()
        }
        for await event in events {
            switch event {
            case .timeout:
                return .timedOut
            case .update:
                if done() {
                    return .satisfied
                }
            }
        }
        return .cancelled
    }
}

/// Something a waiting test context hears about.
enum WaitEvent: Sendable {
    case update
    case timeout
}

/// How a wait ended.
enum WaitOutcome {
    case satisfied
    case timedOut
    case cancelled

    /// Throws for anything but success, as the throwing waits do.
    func check(timeout: Double) throws {
        switch self {
        case .satisfied: return
        case .timedOut: throw AtomTestContextTimeoutError(timeout: timeout)
        case .cancelled: throw CancellationError()
        }
    }
}
