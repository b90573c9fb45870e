#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A point in a journal as a user writes it: `0` (before the first transaction), `N` (after
/// transaction N), `last`, or `last-K`.
package enum StepSpec: Equatable, Sendable, CustomStringConvertible {
    /// After transaction N; `0` means before the first.
    case number(Int)
    /// K transactions before the last (`last` is `last-0`).
    case fromLast(Int)

    /// Parses `0`, `N`, `last` or `last-K`; `nil` when the text is none of these.
    package init?(_ text: String) {
        let text = text.trimmingWhitespace()
        if text == "last" {
            self = .fromLast(0)
        } else if text.hasPrefix("last-"), let back = Int(text.dropFirst(5)), back >= 0 {
            self = .fromLast(back)
        } else if let number = Int(text), number >= 0 {
            self = .number(number)
        } else {
            return nil
        }
    }

    /// The step in a journal spanning `first...last`; `0` is the journal's first step.
    ///
    /// - Throws: ``InspectorError`` (usage) when the step is outside the journal.
    package func resolve(first: Int, last: Int, journal: String) throws(InspectorError) -> Int {
        let step: Int
        switch self {
        case .number(0): step = first
        case .number(let number): step = number
        case .fromLast(let back): step = last.saturatingAdd(-back)
        }
        guard step >= first, step <= last else {
            throw InspectorError(.usage, path: journal, "step \(self) is outside the journal (steps \(first)…\(last)) — use a step in that range, last, or last-K")
        }
        return step
    }

    /// How the user wrote it.
    package var description: String {
        switch self {
        case .number(let number): String(number)
        case .fromLast(0): "last"
        case .fromLast(let back): "last-\(back)"
        }
    }

    /// Parses a step or throws a usage error naming the text.
    package static func parse(_ text: String) throws(InspectorError) -> StepSpec {
        guard let step = StepSpec(text) else {
            throw InspectorError(.usage, "invalid step '\(text)' — use 0, a transaction number, last, or last-K")
        }
        return step
    }
}
