import Atoms
import TestSupport

/// An input the gated atoms watch before they wait, so a test can recompute them mid-refresh.
struct GateInputAtom: StateAtom, Hashable {
    let name: String

    func defaultValue(context: Context) -> Int {
        0
    }
}

/// The phase of a computation that waits at its gate; its value is `arrival * 100 + input`.
struct GatedPhaseAtom: AsyncPhaseAtom, Hashable {
    let name: String

    func value(context: Context) async -> Int {
        let input = context.watch(GateInputAtom(name: name))
        let arrival = await Gates.named(name).pass()
        return arrival * 100 + input
    }
}

/// A task that waits at its gate; its value is the arrival's number.
struct GatedTaskAtom: TaskAtom, Hashable {
    let name: String

    func value(context: Context) async -> Int {
        await Gates.named(name).pass()
    }
}

/// A throwing task that waits at its gate; its value is the arrival's number.
struct GatedThrowingTaskAtom: ThrowingTaskAtom, Hashable {
    let name: String

    func value(context: Context) async throws -> Int {
        let arrival = await Gates.named(name).pass()
        try Task.checkCancellation()
        return arrival
    }
}

/// A sequence that yields the arrival's number, waits at its gate, then ends.
struct GatedSequenceAtom: AsyncSequenceAtom, Hashable {
    let name: String

    func sequence(context: Context) -> AsyncStream<Int> {
        let name = name
        return AsyncStream { continuation in
            Task { @MainActor in
                let gate = Gates.named(name)
                continuation.yield(gate.arrivals + 1)
                _ = await gate.pass()
                continuation.finish()
            }
        }
    }
}
