import Atoms
import AtomsJournalMacros

/// The service, injectable in tests with `override`.
public struct MovieAPIAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> any MovieAPI {
        FakeMovieAPI()
    }
}

/// What the user typed in the search field.
public struct QueryAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> String {
        ""
    }
}

/// The results page shown.
public struct PageAtom: StateAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// The value before the first write.
    public func defaultValue(context: Context) -> Int {
        1
    }
}

/// Searches for the debounced query: typing fast issues one request, not one per key.
public struct SearchMoviesAtom: ThrowingTaskAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// How long the query must rest before a search starts, in seconds.
    public static let debounce = 0.05

    /// Computed from the atoms it watches.
    public func value(context: Context) async throws -> MoviePage {
        let query = context.watch(QueryAtom().debounce(for: Self.debounce))
        let page = context.watch(PageAtom())
        let api = context.watch(MovieAPIAtom())
        return try await api.search(query: query, page: page)
    }
}

/// The search as the screen shows it.
@JournalRecordable
public struct SearchResults: Codable, Equatable, Sendable {
    /// `suspending`, `success` or `failure`.
    public var phase: String
    /// The page number, from 1 (or the page of results).
    public var page: MoviePage?
    /// The failure, when the search failed.
    public var error: String?
}

/// The search's phase and page, as the screen shows them.
public struct SearchResultsAtom: ValueAtom, Hashable {
    /// The atom; it has no parameters.
    public init() {}

    /// Computed from the atoms it watches.
    public func value(context: Context) -> SearchResults {
        switch context.watch(SearchMoviesAtom().phase) {
        case .suspending: SearchResults(phase: "suspending")
        case .success(let page): SearchResults(phase: "success", page: page)
        case .failure(let error): SearchResults(phase: "failure", error: String(describing: error))
        }
    }
}
