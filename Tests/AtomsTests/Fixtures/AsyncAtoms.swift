import Foundation
import Atoms

// The upstream README's testing guide, as upstream code declares it.

struct Book: Equatable, Sendable {
    var title: String
    var isbn: String
}

protocol APIClientProtocol: Sendable {
    func fetchBook(isbn: String) async throws -> Book
}

struct APIClient: APIClientProtocol {
    func fetchBook(isbn: String) async throws -> Book {
        throw URLError(.notConnectedToInternet)
    }
}

final class MockAPIClient: APIClientProtocol, @unchecked Sendable {
    var response: Book?

    func fetchBook(isbn: String) async throws -> Book {
        guard let response else {
            throw URLError(.unknown)
        }
        return response
    }
}

struct APIClientAtom: ValueAtom, Hashable {
    func value(context: Context) -> any APIClientProtocol {
        APIClient()
    }
}

struct FetchBookAtom: ThrowingTaskAtom, Hashable {
    let isbn: String

    func value(context: Context) async throws -> Book {
        let api = context.watch(APIClientAtom())
        return try await api.fetchBook(isbn: isbn)
    }
}

// Async atoms driven by tests.

struct MultiplierAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 2 }
}

struct DoubledTaskAtom: TaskAtom, Hashable {
    func value(context: Context) async -> Int {
        context.watch(MultiplierAtom()) * 21
    }
}

enum LookupError: Error, Equatable {
    case notFound(String)
}

struct LookupAtom: AsyncPhaseAtom, Hashable {
    let name: String

    func value(context: Context) async throws(LookupError) -> Int {
        guard name == "answer" else {
            throw LookupError.notFound(name)
        }
        return 42
    }
}

/// A sequence a test feeds element by element.
final class Feed: @unchecked Sendable {
    let stream: AsyncThrowingStream<Int, any Error>
    let continuation: AsyncThrowingStream<Int, any Error>.Continuation

    init() {
        (stream, continuation) = AsyncThrowingStream.makeStream()
    }
}

struct FeedAtom: AsyncSequenceAtom, Hashable {
    let name: String

    func sequence(context: Context) -> AsyncThrowingStream<Int, any Error> {
        Feeds.feed(name).stream
    }
}

@MainActor
enum Feeds {
    private static var feeds: [String: Feed] = [:]

    static func feed(_ name: String) -> Feed {
        if let feed = feeds[name] { return feed }
        let feed = Feed()
        feeds[name] = feed
        return feed
    }
}

/// A task that runs until cancelled, recording that it was.
struct NeverEndingAtom: TaskAtom, Hashable {
    let probe: String

    func value(context: Context) async -> Int {
        let probe = Probes.named(probe)
        probe.record("started")
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(5))
        }
        probe.record("cancelled")
        return -1
    }
}

struct SlowPhaseAtom: AsyncPhaseAtom, Hashable {
    let probe: String

    func value(context: Context) async throws(Never) -> Int {
        try? await Task.sleep(for: .milliseconds(50))
        Probes.named(probe).record("finished")
        return 1
    }
}

/// A dependency that counts how often it is created.
struct CountedServiceAtom: ValueAtom, Hashable {
    let probe: String

    func value(context: Context) -> Int {
        Probes.named(probe).record("service created")
        return 7
    }
}

/// A task atom watching a service and a changing input, then suspending.
struct ServiceTaskAtom: TaskAtom, Hashable {
    let probe: String

    func value(context: Context) async -> Int {
        let service = context.watch(CountedServiceAtom(probe: probe))
        let input = context.watch(MultiplierAtom())
        try? await Task.sleep(for: .milliseconds(1))
        return service * input
    }
}
