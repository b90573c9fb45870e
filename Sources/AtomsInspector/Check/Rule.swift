#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One graph-shape assertion from a rules file.
///
/// Rules, one per line (`#` starts a comment; `*` in a name matches any run of characters;
/// names may be written in double quotes):
/// - `edge A -> B`: some atom matching B watches some atom matching A.
/// - `no-edge A -> B`: no atom matching B watches an atom matching A.
/// - `node A`: an atom matching A is live.
/// - `no-node A`: no atom matching A is live.
/// - `acyclic`: the dependency graph has no cycle.
/// - `max-depth N`: the longest dependency chain has at most N atoms.
/// - `max-nodes N`: at most N atoms are live.
package enum Rule: Equatable, Sendable, CustomStringConvertible {
    case edge(String, String)
    case noEdge(String, String)
    case node(String)
    case noNode(String)
    case acyclic
    case maxDepth(Int)
    case maxNodes(Int)

    /// The rule as written in a rules file.
    package var description: String {
        switch self {
        case .edge(let from, let to): "edge \(from) -> \(to)"
        case .noEdge(let from, let to): "no-edge \(from) -> \(to)"
        case .node(let name): "node \(name)"
        case .noNode(let name): "no-node \(name)"
        case .acyclic: "acyclic"
        case .maxDepth(let depth): "max-depth \(depth)"
        case .maxNodes(let count): "max-nodes \(count)"
        }
    }
}

/// A rule and where it was written.
package struct RuleLine: Equatable, Sendable {
    /// The rule.
    package let rule: Rule
    /// The line number in the rules file (1-based).
    package let line: Int
}

/// Parses rules files.
package enum RulesParser {
    /// The rules in a file's text.
    ///
    /// - Throws: ``InspectorError`` (status 65) naming `file:line` for the first malformed rule.
    package static func parse(_ text: String, file: String) throws(InspectorError) -> [RuleLine] {
        var rules: [RuleLine] = []
        // Split on any line break: in Swift "\r\n" is one Character, so a CRLF file split on
        // "\n" alone would be one long line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = strippingComment(String(rawLine)).trimmingWhitespace()
            guard !line.isEmpty else { continue }
            let number = index + 1
            func fail(_ what: String) -> InspectorError {
                InspectorError(.dataError, path: file, line: number, "\(what) — rules are: edge A -> B, no-edge A -> B, node A, no-node A, acyclic, max-depth N, max-nodes N")
            }
            let keyword = String(line.prefix { !$0.isWhitespace })
            let argument = line.dropFirst(keyword.count).trimmingWhitespace()
            let rule: Rule
            switch keyword {
            case "edge", "no-edge":
                let parts = argument.components(separatedBy: "->")
                guard parts.count == 2, let from = name(parts[0]), let to = name(parts[1]) else {
                    throw fail("'\(keyword)' needs two names: \(keyword) A -> B")
                }
                rule = keyword == "edge" ? .edge(from, to) : .noEdge(from, to)
            case "node", "no-node":
                guard let atom = name(argument) else {
                    throw fail("'\(keyword)' needs one name")
                }
                rule = keyword == "node" ? .node(atom) : .noNode(atom)
            case "acyclic":
                guard argument.isEmpty else { throw fail("'acyclic' takes no argument") }
                rule = .acyclic
            case "max-depth", "max-nodes":
                guard let limit = Int(argument), limit >= 0 else {
                    throw fail("'\(keyword)' needs a whole number, got '\(argument)'")
                }
                rule = keyword == "max-depth" ? .maxDepth(limit) : .maxNodes(limit)
            default:
                throw fail("unknown rule '\(keyword)'")
            }
            rules.append(RuleLine(rule: rule, line: number))
        }
        guard !rules.isEmpty else {
            // A check of nothing would pass: almost always the wrong file.
            throw InspectorError(.dataError, path: file, "holds no rules — write one rule per line: edge A -> B, no-edge A -> B, node A, no-node A, acyclic, max-depth N, max-nodes N")
        }
        return rules
    }

    /// A name: trimmed, unquoted, not empty, without spaces unless quoted.
    private static func name(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
            let inner = String(trimmed.dropFirst().dropLast())
            return inner.isEmpty || inner.contains("\"") ? nil : inner
        }
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace || $0 == "\"" }) else { return nil }
        return trimmed
    }

    /// The line without a `#` comment (a `#` inside double quotes is kept).
    private static func strippingComment(_ line: String) -> String {
        var inQuotes = false
        for index in line.indices {
            if line[index] == "\"" { inQuotes.toggle() }
            if line[index] == "#" && !inQuotes { return String(line[..<index]) }
        }
        return line
    }
}
