import Atoms
import AtomsInspector
@testable import AtomsJournal
import Foundation
import SampleMovies
import Testing
import TestSupport
@testable import AtomsTesting

/// Asynchronous atoms replayed from their recorded results: tasks never run (the service
/// throws on every call), derived atoms are computed by today's code and checked, failures
/// arrive as what the recorded error said.
@MainActor
struct AsyncReplayTests {
    /// Records a lookup session: a success, a query typed (debounced), a failure, and a phase
    /// atom of its own.
    static func recordLookupSession(to path: String) async throws {
        let context = AtomTestContext(journal: .path(path))
        context.watch(LookupMessageAtom())
        context.watch(UnreadBadgeAtom())
        try await context.wait(for: LookupMessageAtom(), within: 300) { $0 == "0 found" }
        try await context.wait(for: UnreadBadgeAtom(), within: 300) { $0 == "60 unread" }
        context[LookupQueryAtom()] = "abc"
        try await context.wait(for: LookupMessageAtom(), within: 300) { $0 == "30 found" }
        context[LookupQueryAtom()] = "bad"
        try await context.wait(for: LookupMessageAtom(), within: 300) { $0.hasPrefix("failed") }
        (context.recording as? JournalRecording)?.finish(testFailed: false)
    }

    static func lookupReplay(_ path: String) throws -> JournalReplay {
        let replay = try JournalReplay(journal: path)
        replay.drive(LookupQueryAtom())
        replay.drive(LookupQueryAtom().debounce(for: LookupAtom.debounce))
        replay.drive(LookupAtom())
        replay.drive(UnreadAtom())
        replay.check(LookupMessageAtom())
        replay.check(UnreadBadgeAtom())
        return replay
    }

    @Test func aLookupSessionReplaysWithAServiceThatThrowsOnEveryCall() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("lookup.jsonl")
        try await Self.recordLookupSession(to: path)
        let counter = CallCounter()
        let context = AtomTestContext()
        context.override(LookupServiceAtom()) { _ in LookupServiceAtom.throwing(counter) }
        try Self.lookupReplay(path).run(in: context)
        #expect(counter.calls == 0)
        // The failure arrived as the recorded error said it, and today's code derived the message.
        #expect(context.read(LookupMessageAtom()) == "failed: nothing found for 'bad'")
        #expect(context.read(UnreadBadgeAtom()) == "60 unread")
        // The phase holds a recorded failure, saying what the recorded error said.
        guard case .failure(let error as RecordedFailure) = context.read(LookupAtom().phase) else {
            Issue.record("the phase is \(context.read(LookupAtom().phase)), not a recorded failure")
            return
        }
        #expect(error.description == "nothing found for 'bad'")
    }

    @Test func aDerivedAtomThatNoLongerFollowsThePhaseFailsWhereTheResultArrived() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("lookup.jsonl")
        try await Self.recordLookupSession(to: path)
        let recorded = try InspectedJournal(path: path)
        let firstResult = try (1...recorded.reader.lastStep).first { step in
            let record = try recorded.transaction(step, decodingValuesOf: [])
            let values = try recorded.state(at: step).values.values
            return record.cause == "async-result" && values.contains { $0.v == .string("0 found") }
        }
        let context = AtomTestContext()
        context.override(LookupServiceAtom()) { _ in LookupServiceAtom.throwing(CallCounter()) }
        // Today's message ignores the phase: the first delivered result shows it.
        context.override(LookupMessageAtom()) { _ in "searching" }
        let failure = try #require(throws: JournalReplayFailure.self) { try Self.lookupReplay(path).run(in: context) }
        #expect(failure.atom == "LookupMessageAtom")
        #expect(failure.step == firstResult)
        #expect(failure.cause == "async-result")
    }

    @Test func theMoviesSessionReplaysItsSearchesWithAnAPIThatThrowsOnEveryCall() throws {
        let calls = CallCounter()
        let context = AtomTestContext()
        context.override(MovieAPIAtom()) { _ in ThrowingMovieAPI(calls: calls) }
        let replay = try JournalReplay(journal: "samples/journals/movies.jsonl")
        replay.drive(QueryAtom().debounce(for: SearchMoviesAtom.debounce))
        replay.drive(SearchMoviesAtom())
        replay.drive(PageAtom())
        replay.drive(QueryAtom())
        replay.check(SearchResultsAtom())
        try replay.run(in: context)
        #expect(calls.calls == 0)
        // Today's SearchResultsAtom computed the last recorded page from the delivered phase.
        let journal = try InspectedJournal(path: "samples/journals/movies.jsonl")
        let last = try journal.state(at: journal.reader.lastStep)
        let results = try #require(last.declarations.values.first { $0.label == "SearchResultsAtom" })
        let recorded = try #require(last.values[results.id]?.v)
        let today = try JSONValue.parse(Array(try JSONEncoder().encode(context.read(SearchResultsAtom()))))
        #expect(today == recorded)
    }

    @Test func aRecordedResultThatNoLongerDecodesNamesTheAtomAndStep() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("lookup.jsonl")
        try await Self.recordLookupSession(to: path)
        // The recorded count becomes text: today's Int no longer decodes it.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: "\"phase\":\"success\",\"v\":30", with: "\"phase\":\"success\",\"v\":\"thirty\"")
        #expect(damaged != text)
        try damaged.write(toFile: path, atomically: true, encoding: .utf8)
        let context = AtomTestContext()
        context.override(LookupServiceAtom()) { _ in LookupServiceAtom.throwing(CallCounter()) }
        let failure = try #require(throws: JournalReplayFailure.self) { try Self.lookupReplay(path).run(in: context) }
        #expect(failure.atom?.hasPrefix("ModifiedAtom<LookupAtom, TaskPhaseModifier") == true, "\(failure)")
        #expect(failure.step != nil)
        #expect(failure.detail.contains("does not make today's value"), "\(failure.detail)")
    }

    @Test func anAsyncAtomWhoseResultsTheJournalDoesNotHoldIsNamed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("lookup.jsonl")
        try await Self.recordLookupSession(to: path)
        let replay = try JournalReplay(journal: path)
        replay.drive(SearchMoviesAtom())
        let failure = try #require(throws: JournalReplayFailure.self) { try replay.run(in: AtomTestContext()) }
        #expect(failure.detail.contains("the journal never declares Atoms.ModifiedAtom<SampleMovies.SearchMoviesAtom, Atoms.TaskPhaseModifier<SampleMovies.MoviePage, Swift.Error>>"), "\(failure.detail)")
    }
}

/// A movie service that throws on every call, counting them.
struct ThrowingMovieAPI: MovieAPI {
    let calls: CallCounter

    func search(query: String, page: Int) async throws -> MoviePage {
        calls.called()
        throw MovieAPIError.unavailable("a replay called the service for '\(query)'")
    }
}
