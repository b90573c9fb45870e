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
        replay.drive(SampleMovies.PageAtom())  // written 8 times, changed 8 times
        replay.drive(SampleMovies.QueryAtom())  // written 106 times, changed 104 times
        // Atoms.ModifiedAtom<SampleMovies.QueryAtom, Atoms.DebounceModifier<Swift.String>>: a generic, modified or local type: name it in Swift yourself (changed 28 times)
        // Atoms.ModifiedAtom<SampleMovies.SearchMoviesAtom, Atoms.TaskPhaseModifier<SampleMovies.MoviePage, Swift.Error>>: a generic, modified or local type: name it in Swift yourself (changed 91 times)
        // SampleMovies.MovieAPIAtom: recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable (changed 0 times)
        // SampleMovies.SearchMoviesAtom: recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable (changed 54 times)
        // SampleMovies.SearchResultsAtom: derives from the asynchronous ModifiedAtom<SearchMoviesAtom, TaskPhaseModifier<MoviePage, Error>>: its values depend on when results arrived; override that atom with a recorded result to check it (changed 73 times)
        try replay.run(in: AtomTestContext())
    }
}
