import AtomsJournalReader

/// The chain of dependency edges that carried a transaction's change from its origin atom to
/// an atom that changed with it.
enum ChangePath {
    /// The atoms from `origin` to `atom` along dependency edges (an edge `from → to` means `to`
    /// watches `from`), preferring a path through atoms the transaction also changed; `nil`
    /// when no edge path joins them. `[atom]` when the atom is the origin or there is none.
    ///
    /// Shortest path by breadth-first search, visiting dependents in atom-number order so the
    /// same journal always gives the same path.
    static func path(from origin: Int?, to atom: Int, edges: Set<EdgeEntry>, changed: Set<Int>) -> [Int]? {
        guard let origin, origin != atom else {
            return [atom]
        }
        var dependents: [Int: [Int]] = [:]
        for edge in edges {
            dependents[edge.from, default: []].append(edge.to)
        }
        for key in dependents.keys {
            dependents[key]!.sort()
        }
        return search(origin, atom, dependents) { changed.contains($0) || $0 == atom }
            ?? search(origin, atom, dependents) { _ in true }
    }

    private static func search(_ origin: Int, _ atom: Int, _ dependents: [Int: [Int]], allowed: (Int) -> Bool) -> [Int]? {
        var previous: [Int: Int] = [origin: origin]
        var queue = [origin]
        var index = 0
        while index < queue.count {
            let node = queue[index]
            index += 1
            if node == atom {
                var path = [atom]
                while path[0] != origin {
                    path.insert(previous[path[0]]!, at: 0)
                }
                return path
            }
            for next in dependents[node] ?? [] where previous[next] == nil && allowed(next) {
                previous[next] = node
                queue.append(next)
            }
        }
        return nil
    }
}
