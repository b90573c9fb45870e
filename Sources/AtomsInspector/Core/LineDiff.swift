/// A line diff of two texts, as `diff` and `compare` print a changed value: `-` for a line of
/// the old text, `+` for a line of the new, two spaces for a line of both; unchanged runs
/// longer than the context around a change fold to `… (N unchanged)`.
///
/// The same algorithm as the report page's `lineDiff` and `foldDiff` (`values.js`): the common
/// prefix and suffix, and a longest common subsequence of what lies between them.
///
/// ## Example
/// ```
/// LineDiff.render(old: "[\n  1,\n  2\n]", new: "[\n  1,\n  3\n]")
/// // "  [\n    1,\n-   2\n+   3\n  ]"
/// ```
package enum LineDiff {
    /// Above this many cells of the subsequence table, the changed middle is listed as its
    /// removed lines, then its added ones.
    static let tableLimit = 250_000

    /// What a line of the diff is.
    package enum Mark: String, Sendable {
        case both = " "
        case removed = "-"
        case added = "+"
    }

    /// The diff's lines, each marked.
    ///
    /// - Complexity: O(*n* + *m* + *k*·*l*), where *k* and *l* are the lengths of the two
    ///   middles between the common prefix and suffix (capped by ``tableLimit``).
    package static func lines<Line: Equatable>(_ old: [Line], _ new: [Line]) -> [(mark: Mark, line: Line)] {
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let x = old[prefix..<(old.count - suffix)]
        let y = new[prefix..<(new.count - suffix)]
        var result = old[..<prefix].map { (mark: Mark.both, line: $0) }
        if x.count * y.count <= tableLimit {
            // common[i][j]: the longest common subsequence of x[i...] and y[j...].
            let width = y.count + 1
            var common = [Int32](repeating: 0, count: (x.count + 1) * width)
            for i in stride(from: x.count - 1, through: 0, by: -1) {
                for j in stride(from: y.count - 1, through: 0, by: -1) {
                    common[i * width + j] = x[x.startIndex + i] == y[y.startIndex + j]
                        ? common[(i + 1) * width + j + 1] + 1
                        : max(common[(i + 1) * width + j], common[i * width + j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < x.count || j < y.count {
                if i < x.count && j < y.count && x[x.startIndex + i] == y[y.startIndex + j] {
                    result.append((.both, x[x.startIndex + i]))
                    i += 1
                    j += 1
                } else if i < x.count && (j == y.count || common[(i + 1) * width + j] >= common[i * width + j + 1]) {
                    result.append((.removed, x[x.startIndex + i]))
                    i += 1
                } else {
                    result.append((.added, y[y.startIndex + j]))
                    j += 1
                }
            }
        } else {
            result += x.map { (Mark.removed, $0) }
            result += y.map { (Mark.added, $0) }
        }
        result += old[(old.count - suffix)...].map { (Mark.both, $0) }
        return result
    }

    /// The diff of two texts as lines of text, unchanged runs folded beyond `context` lines
    /// around each change; `nil` when the texts are equal.
    package static func render(old: String, new: String, context: Int = 3) -> String? {
        guard old != new else { return nil }
        let marked = lines(
            old.split(separator: "\n", omittingEmptySubsequences: false),
            new.split(separator: "\n", omittingEmptySubsequences: false)
        )
        var kept = [Bool](repeating: false, count: marked.count)
        for (index, entry) in marked.enumerated() where entry.mark != .both {
            for near in max(0, index - context)...min(marked.count - 1, index + context) {
                kept[near] = true
            }
        }
        var shown: [String] = []
        var index = 0
        while index < marked.count {
            if kept[index] {
                shown.append(marked[index].mark.rawValue + " " + marked[index].line)
                index += 1
                continue
            }
            let start = index
            while index < marked.count && !kept[index] {
                index += 1
            }
            shown.append("  … (\(index - start) unchanged)")
        }
        return shown.joined(separator: "\n")
    }
}
