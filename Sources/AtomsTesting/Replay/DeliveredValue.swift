import Atoms
import AtomsJournal

/// The recorded value a replay makes a delivered atom hold (an asynchronous phase, a debounced
/// value): the atom is overridden to read it, so today's producer (a task, a timer) never runs,
/// and each recorded change is delivered into the store as the result it was.
@MainActor
final class DeliveredValue<Value> {
    /// What the atom holds when the replay's store creates it.
    var value: Value
    /// Waiters for a driven task atom's outcome (its `Task` as today's code awaits it).
    private var outcomeWaiters: [(Value) -> Void] = []

    init(_ value: Value) {
        self.value = value
    }

    /// Takes a recorded value, and hands it to whatever awaits an outcome.
    func take(_ value: Value, settles: Bool) {
        self.value = value
        guard settles else { return }
        let waiters = outcomeWaiters
        outcomeWaiters.removeAll()
        for waiter in waiters { waiter(value) }
    }

    /// Calls `waiter` with the next value that settles (at once when `settled` says the current
    /// one does).
    func whenSettled(_ settled: Bool, _ waiter: @escaping (Value) -> Void) {
        if settled {
            waiter(value)
        } else {
            outcomeWaiters.append(waiter)
        }
    }
}

/// How a recorded entry becomes an asynchronous phase of today's types.
enum RecordedPhase {
    /// Why an entry does not make a phase.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// The phase a recorded entry holds: `.suspending`, `.success` with `v` decoded as
    /// `Success`, or `.failure` with a ``RecordedFailure`` saying what the recorded error said.
    static func decoded<Success: Decodable, Failure: Error>(_ entry: ValueEntry, as type: AsyncPhase<Success, Failure>.Type) throws -> AsyncPhase<Success, Failure> {
        switch entry.phase {
        case "suspending":
            return .suspending
        case "success":
            guard let v = entry.v else {
                throw Mismatch(description: "its recorded success holds no JSON value (\(Success.self) was not Codable when recorded)")
            }
            return .success(try RecordedValueSeeds.decoded(v, as: Success.self))
        case "failure":
            let failure = RecordedFailure(description: entry.error ?? entry.dump ?? "a recorded failure")
            guard let error = failure as? Failure else {
                throw Mismatch(description: "its recorded failure cannot be made as today's failure type \(Failure.self) (a replay gives failures as RecordedFailure, which fits `any Error`)")
            }
            return .failure(error)
        case let other?:
            throw Mismatch(description: "its recorded phase \"\(other)\" is none of suspending, success, failure")
        case nil:
            throw Mismatch(description: "its recorded value is not an asynchronous phase")
        }
    }

    /// The outcome a driven task atom's `Task` gives: the recorded phase once it settles.
    ///
    /// A task whose outcome the journal never delivers stays suspended, as the recorded one
    /// was when the session ended.
    @MainActor
    static func outcome<Success: Sendable, Failure>(of held: DeliveredValue<AsyncPhase<Success, Failure>>) async -> Result<Success, Failure> {
        if let settled = result(of: held.value) {
            return settled
        }
        return await withUnsafeContinuation { continuation in
            // Called at once, on the main actor this function runs on.
            MainActor.assumeIsolated {
                held.whenSettled(false) { phase in
                    // Only settled phases reach a waiter.
                    if let settled = result(of: phase) { continuation.resume(returning: settled) }
                }
            }
        }
    }

    /// A settled phase's outcome; `nil` while suspending.
    private static func result<Success, Failure>(of phase: AsyncPhase<Success, Failure>) -> Result<Success, Failure>? {
        switch phase {
        case .success(let value): .success(value)
        case .failure(let error): .failure(error)
        case .suspending: nil
        }
    }

    /// Whether a phase is an outcome (success or failure), which a task awaiting it takes.
    static func settles<Success, Failure>(_ phase: AsyncPhase<Success, Failure>) -> Bool {
        if case .suspending = phase { return false }
        return true
    }
}
