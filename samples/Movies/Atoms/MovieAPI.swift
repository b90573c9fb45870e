import AtomsJournalMacros
import Foundation

/// A movie in search results.
@JournalRecordable
public struct Movie: Codable, Hashable, Sendable {
    /// Its id.
    public var id: Int
    /// Its title.
    public var title: String
    /// Its year.
    public var year: Int
}

/// One page of search results.
@JournalRecordable
public struct MoviePage: Codable, Equatable, Sendable {
    /// The query searched.
    public var query: String
    /// The page number, from 1 (or the page of results).
    public var page: Int
    /// How many pages the query has.
    public var totalPages: Int
    /// The movies on this page.
    public var movies: [Movie]
}

/// Why a search failed.
public enum MovieAPIError: Error, Equatable, CustomStringConvertible {
    case unavailable(String)

    /// What the screen shows for the error.
    public var description: String {
        switch self {
        case .unavailable(let query): "the movie service is unavailable for '\(query)'"
        }
    }
}

/// The movie service the app talks to.
public protocol MovieAPI: Sendable {
    func search(query: String, page: Int) async throws -> MoviePage
}

/// An in-process stand-in for a movie service: a fixed catalog, five results per page, a
/// fixed delay per request, and a failure for the query "offline". No network.
public struct FakeMovieAPI: MovieAPI {
    static let pageSize = 5
    static let catalog: [Movie] = {
        let words = ["Star", "Night", "River", "Atom", "Garden", "Signal", "Winter", "Echo", "Harbor", "Orbit"]
        let kinds = ["Story", "Returns", "Rising", "Falls", "Protocol", "Dreams"]
        return (0..<60).map { index in
            Movie(id: index + 1, title: "\(words[index % words.count]) \(kinds[(index / words.count) % kinds.count])", year: 1970 + (index * 7) % 55)
        }
    }()

    var delayMilliseconds = 20

    /// The page of the catalog's titles that contain the query, after the delay.
    public func search(query: String, page: Int) async throws -> MoviePage {
        try await Task.sleep(for: .milliseconds(delayMilliseconds))
        guard query != "offline" else {
            throw MovieAPIError.unavailable(query)
        }
        let matches = Self.catalog.filter { query.isEmpty || $0.title.localizedCaseInsensitiveContains(query) }
        let totalPages = max(1, (matches.count + Self.pageSize - 1) / Self.pageSize)
        let start = (page - 1) * Self.pageSize
        let movies = start < matches.count ? Array(matches[start..<min(start + Self.pageSize, matches.count)]) : []
        return MoviePage(query: query, page: page, totalPages: totalPages, movies: movies)
    }
}
