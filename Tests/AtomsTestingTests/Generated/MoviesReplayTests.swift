// Replays samples/journals/movies.jsonl (recorded by sample-movies, 213 transactions) against today's atoms.
// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others
// checked after every step. Edit freely; see "A recorded session as a test" in the README.
// Guarded for this repository: .ci/tsan-tests.sh defines ATOMS_SANITIZER_BUILD (a sanitized build
// cannot import an executable's module); ReplayTestCommandTests compares the rest with replay-test.
#if !ATOMS_SANITIZER_BUILD
import Atoms
import AtomsTesting
import Testing
@testable import sample_movies

@Suite(.atomJournal) @MainActor
struct MoviesReplayTests {
    @Test func moviesSessionStillBehaves() throws {
        let replay = try JournalReplay(journal: "samples/journals/movies.jsonl")
        replay.drive(sample_movies.PageAtom())  // written 8 times, changed 8 times
        replay.drive(sample_movies.QueryAtom())  // written 106 times, changed 104 times
        // Atoms.ModifiedAtom<sample_movies.QueryAtom, Atoms.DebounceModifier<Swift.String>>: a generic, modified or local type: name it in Swift yourself (changed 25 times)
        // Atoms.ModifiedAtom<sample_movies.SearchMoviesAtom, Atoms.TaskPhaseModifier<sample_movies.MoviePage, Swift.Error>>: a generic, modified or local type: name it in Swift yourself (changed 85 times)
        // sample_movies.MovieAPIAtom: recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable (changed 0 times)
        // sample_movies.SearchMoviesAtom: recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable (changed 51 times)
        // sample_movies.SearchResultsAtom: derives from the asynchronous ModifiedAtom<SearchMoviesAtom, TaskPhaseModifier<MoviePage, Error>>: its values depend on when results arrived; override that atom with a recorded result to check it (changed 67 times)
        try replay.run(in: AtomTestContext())
    }
}
#endif
