import Atoms
import AtomsJournalMacros

/// The service, injectable in tests with `override`.
struct MovieAPIAtom: ValueAtom, Hashable {
    func value(context: Context) -> any MovieAPI {
        FakeMovieAPI()
    }
}

/// What the user typed in the search field.
struct QueryAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String {
        ""
    }
}

/// The results page shown.
struct PageAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int {
        1
    }
}

/// Searches for the debounced query: typing fast issues one request, not one per key.
struct SearchMoviesAtom: ThrowingTaskAtom, Hashable {
    static let debounce = 0.05

    func value(context: Context) async throws -> MoviePage {
        let query = context.watch(QueryAtom().debounce(for: Self.debounce))
        let page = context.watch(PageAtom())
        let api = context.watch(MovieAPIAtom())
        return try await api.search(query: query, page: page)
    }
}

/// The search as the screen shows it.
@JournalRecordable
struct SearchResults: Codable, Equatable, Sendable {
    var phase: String
    var page: MoviePage?
    var error: String?
}

struct SearchResultsAtom: ValueAtom, Hashable {
    func value(context: Context) -> SearchResults {
        switch context.watch(SearchMoviesAtom().phase) {
        case .suspending: SearchResults(phase: "suspending")
        case .success(let page): SearchResults(phase: "success", page: page)
        case .failure(let error): SearchResults(phase: "failure", error: String(describing: error))
        }
    }
}
