import Atoms
import Foundation

/// What the lookup searches for: a state the session writes.
struct LookupQueryAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}

/// Why a lookup failed.
enum LookupError: Error, CustomStringConvertible {
    case nothingFound(String)

    var description: String {
        switch self {
        case .nothingFound(let query): "nothing found for '\(query)'"
        }
    }
}

/// The service a lookup calls: tests override it with one that throws on every call.
struct LookupService: Sendable {
    let find: @Sendable (String) async throws -> Int
}

/// Counts calls to a service that should never be called.
final class CallCounter: @unchecked Sendable {
    // Unchecked: counted under the lock.
    private let lock = NSLock()
    private var count = 0

    var calls: Int { lock.withLock { count } }

    func called() { lock.withLock { count += 1 } }
}

struct LookupServiceAtom: ValueAtom, Hashable {
    func value(context: Context) -> LookupService {
        LookupService { query in
            guard query != "bad" else { throw LookupError.nothingFound(query) }
            return query.count * 10
        }
    }

    /// A service that throws on every call, counting them.
    static func throwing(_ counter: CallCounter) -> LookupService {
        LookupService { query in
            counter.called()
            throw LookupError.nothingFound("a replay called the service for '\(query)'")
        }
    }
}

/// The lookup: a throwing task over the debounced query.
struct LookupAtom: ThrowingTaskAtom, Hashable {
    static let debounce = 0.01

    func value(context: Context) async throws -> Int {
        let query = context.watch(LookupQueryAtom().debounce(for: Self.debounce))
        let service = context.watch(LookupServiceAtom())
        return try await service.find(query)
    }
}

/// What the screen shows of the lookup: derived from its phase.
struct LookupMessageAtom: ValueAtom, Hashable {
    func value(context: Context) -> String {
        switch context.watch(LookupAtom().phase) {
        case .suspending: "searching"
        case .success(let count): "\(count) found"
        case .failure(let error): "failed: \(error)"
        }
    }
}

/// A phase atom of its own (not a task's `.phase`): the number of unread items.
struct UnreadAtom: AsyncPhaseAtom, Hashable {
    func value(context: Context) async throws -> Int {
        let service = context.watch(LookupServiceAtom())
        return try await service.find("unread")
    }
}

/// Derived from the phase atom.
struct UnreadBadgeAtom: ValueAtom, Hashable {
    func value(context: Context) -> String {
        context.watch(UnreadAtom()).value.map { "\($0) unread" } ?? "-"
    }
}
