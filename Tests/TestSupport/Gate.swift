/// Holds async work under test until the test opens it, and counts the computations that
/// reached it.
///
/// Waiting is event-driven, not polled: while other tests keep the main actor busy, each turn
/// on it can take long, and a wait that needs only one turn to resume stays quick. Every wait
/// still ends after a minute, so a test fails rather than hangs.
@MainActor
public final class Gate {
    /// The gate's name; atoms carry it in their key to find the gate through ``Gates``.
    public let name: String
    /// How many computations have arrived at the gate.
    public private(set) var arrivals = 0
    private var isOpen = false
    private var passers: [Int: CheckedContinuation<Void, Never>] = [:]
    private var arrivalWaiters: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextWaiter = 0

    public init(name: String) {
        self.name = name
    }

    /// Lets every computation waiting at the gate, and every later one, through.
    public func open() {
        isOpen = true
        for arrival in Array(passers.keys) {
            release(arrival)
        }
    }

    /// Makes later computations wait again.
    public func close() {
        isOpen = false
    }

    /// Counts the arrival and waits until the gate is open or the task is cancelled (a minute
    /// at most); returns the arrival's number.
    public func pass() async -> Int {
        arrivals += 1
        let arrival = arrivals
        for (id, waiter) in arrivalWaiters where waiter.count <= arrivals {
            arrivalWaiters[id] = nil
            waiter.continuation.resume(returning: true)
        }
        guard !isOpen, !Task.isCancelled else {
            return arrival
        }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .seconds(Patience.seconds(60)))
            self?.release(arrival)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { passers[arrival] = $0 }
        } onCancel: {
            Task { @MainActor [weak self] in self?.release(arrival) }
        }
        timeout.cancel()
        return arrival
    }

    /// Waits until `count` computations have arrived (a minute at most); returns whether they
    /// did.
    public func waitForArrivals(_ count: Int) async -> Bool {
        guard arrivals < count else {
            return true
        }
        nextWaiter += 1
        let id = nextWaiter
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .seconds(Patience.seconds(60)))
            self?.giveUp(waiter: id)
        }
        let arrived = await withCheckedContinuation { arrivalWaiters[id] = (count, $0) }
        timeout.cancel()
        return arrived
    }

    private func release(_ arrival: Int) {
        passers.removeValue(forKey: arrival)?.resume()
    }

    private func giveUp(waiter id: Int) {
        arrivalWaiters.removeValue(forKey: id)?.continuation.resume(returning: false)
    }
}

/// Gates by name, so that atoms (which carry only a name) find the gate of their test.
@MainActor
public enum Gates {
    private static var gates: [String: Gate] = [:]

    /// A new gate, named after the calling test by default.
    public static func make(_ name: String = #function) -> Gate {
        let gate = Gate(name: name)
        gates[name] = gate
        return gate
    }

    /// The gate with that name, made if there is none.
    public static func named(_ name: String) -> Gate {
        gates[name] ?? make(name)
    }
}
