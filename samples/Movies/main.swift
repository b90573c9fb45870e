import Atoms
import SampleSupport
import SampleMovies
// sample-movies: async search. Commands on stdin, one per line:
//   query TEXT (empty TEXT clears), next, prev, refresh, wait (until the search settles), state.

@MainActor
func runMovies() async {
    let session = SampleSession(name: "sample-movies")
    let screen = session.root.viewContext()
    screen.watch(SearchResultsAtom())
    screen.watch(QueryAtom())
    screen.watch(PageAtom())
    // Watched from the start, not by the first `wait`: a watch is a transaction, and one made
    // while the first search is in flight would race with its result.
    screen.watch(QueryAtom().debounce(for: SearchMoviesAtom.debounce))

    /// Whether the debounced query caught up and its results arrived.
    func isSettled() -> Bool {
        let results = screen.read(SearchResultsAtom())
        return results.phase != "suspending"
            && (results.page.map { $0.query == screen.read(QueryAtom()) && $0.page == screen.read(PageAtom()) } ?? true)
            && screen.read(QueryAtom().debounce(for: SearchMoviesAtom.debounce)) == screen.read(QueryAtom())
    }

    await session.runAsync(
        state: {
            ["QueryAtom": screen.read(QueryAtom()), "PageAtom": screen.read(PageAtom()), "SearchResultsAtom": screen.read(SearchResultsAtom())]
        }
    ) { command, argument in
        switch command {
        case "query":
            screen[QueryAtom()] = argument
            if screen.read(PageAtom()) != 1 {
                screen[PageAtom()] = 1
            }
        case "next", "prev":
            guard let page = screen.read(SearchResultsAtom()).page else {
                throw SampleError("no results yet — type wait first")
            }
            let target = page.page + (command == "next" ? 1 : -1)
            guard (1...page.totalPages).contains(target) else {
                throw SampleError("no \(command == "next" ? "next" : "previous") page (page \(page.page) of \(page.totalPages))")
            }
            screen[PageAtom()] = target
        case "refresh":
            _ = await screen.refresh(SearchMoviesAtom().phase)
        case "wait":
            let deadline = ContinuousClock.now + .seconds(10)
            while !isSettled() {
                guard ContinuousClock.now < deadline else { throw SampleError("the search did not settle within 10 s") }
                try await Task.sleep(for: .milliseconds(5))
            }
        default:
            return false
        }
        return true
    }
}

await runMovies()
