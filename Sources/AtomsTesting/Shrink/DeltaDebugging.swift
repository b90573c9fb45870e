/// Zeller's delta debugging (ddmin): the smallest part of a list under which a test still
/// holds, found by testing chunks and their complements at finer and finer granularity.
///
/// The result is **1-minimal**: taking out any one more item, the test fails. The test may
/// also answer `nil` (out of budget): the search stops and returns the smallest part found.
enum DeltaDebugging {
    /// What a search found.
    struct Result<Item> {
        /// The smallest part found, in the list's order.
        let kept: [Item]
        /// Whether the search ran to the end (the part is 1-minimal); `false` when the test
        /// ran out of budget.
        let isComplete: Bool
    }

    /// The smallest part of `items` (which must hold) for which `holds` is still `true`.
    ///
    /// - Parameters:
    ///   - items: The list, which the test is taken to hold for.
    ///   - holds: Whether the test holds for a part (in the list's order); `nil` to stop.
    /// - Complexity: O(n²) tests at worst, O(k log n) when k items matter.
    static func minimize<Item>(_ items: [Item], holds: ([Item]) -> Bool?) -> Result<Item> {
        var current = items
        // Nothing at all: the smallest there is.
        switch current.isEmpty ? true : holds([]) {
        case true?: return Result(kept: [], isComplete: true)
        case nil: return Result(kept: current, isComplete: false)
        case false?: break
        }
        var granularity = 2
        while current.count >= 2 {
            let chunks = split(current, into: min(granularity, current.count))
            var reduced = false
            // A chunk alone, then everything but a chunk.
            for chunk in chunks {
                guard let result = holds(chunk) else { return Result(kept: current, isComplete: false) }
                if result {
                    current = chunk
                    granularity = 2
                    reduced = true
                    break
                }
            }
            if reduced { continue }
            // With two chunks, each complement is the other chunk, tested above.
            if chunks.count > 2 {
                for index in chunks.indices {
                    let complement = chunks.indices.filter { $0 != index }.flatMap { chunks[$0] }
                    guard let result = holds(complement) else { return Result(kept: current, isComplete: false) }
                    if result {
                        current = complement
                        granularity = max(granularity - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if reduced { continue }
            guard granularity < current.count else { break }
            granularity = min(current.count, granularity * 2)
        }
        // At the finest granularity every part without one item failed: 1-minimal (one item
        // left is needed, as the empty part failed above).
        return Result(kept: current, isComplete: true)
    }

    /// `items` in `count` runs of nearly equal length.
    private static func split<Item>(_ items: [Item], into count: Int) -> [[Item]] {
        var chunks: [[Item]] = []
        var start = 0
        for index in 0..<count {
            let end = start + (items.count - start) / (count - index)
            chunks.append(Array(items[start..<end]))
            start = end
        }
        return chunks
    }
}
