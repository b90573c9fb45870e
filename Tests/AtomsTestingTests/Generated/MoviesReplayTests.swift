// Replays samples/journals/movies.jsonl (recorded by sample-movies, 219 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
import Atoms
import AtomsTesting
import Testing
@testable import SampleMovies

@Suite(.atomJournal) @MainActor
struct MoviesReplayTests {
    @Test func moviesSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/movies.jsonl")
        replay.drive(SampleMovies.QueryAtom().debounce(for: 0.05))  // delivered 28 times, changed 28 times
        replay.drive(SampleMovies.SearchMoviesAtom().phase)  // delivered 37 times, changed 73 times
        replay.drive(SampleMovies.PageAtom())  // written 8 times, changed 8 times
        replay.drive(SampleMovies.QueryAtom())  // written 106 times, changed 104 times
        replay.check(SampleMovies.SearchResultsAtom())  // changed 73 times
        // SampleMovies.MovieAPIAtom: recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable (changed 0 times)
        // SampleMovies.SearchMoviesAtom: a task, recorded as a dump (a Task is not Codable): the replay drives it through its phase, SampleMovies.SearchMoviesAtom().phase, and code awaiting the task takes the recorded outcome (changed 0 times)
        try replay.run(in: AtomTestContext())
    }
}
