import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `atoms-inspect graph`: the dependency graph at a step, as DOT, SVG or PNG.
package enum GraphCommand {
    /// Output formats.
    package enum Format: String, CaseIterable, Sendable {
        /// Graphviz DOT text, in the upstream `graphDescription()` format.
        case dot
        /// SVG rendered by Graphviz's `dot`.
        case svg
        /// PNG rendered by Graphviz's `dot`.
        case png
    }

    /// The DOT at a step; atom-family members are told apart as `label[key]`.
    package static func dot(_ journal: InspectedJournal, at step: StepSpec = .fromLast(0)) throws(InspectorError) -> String {
        try journal.state(at: journal.step(step), decodingValuesOf: []).graphDescription(distinguishingFamilies: true)
    }

    /// The graph in a format: DOT text, or the bytes `dot` rendered.
    ///
    /// - Throws: ``InspectorError`` with status 69 when SVG/PNG is asked for and `dot` is not
    ///   installed (or fails).
    package static func render(_ journal: InspectedJournal, at step: StepSpec = .fromLast(0), format: Format, graphviz: Graphviz = Graphviz()) throws(InspectorError) -> Data {
        let text = try dot(journal, at: step)
        guard format != .dot else {
            return Data((text + "\n").utf8)
        }
        return try graphviz.render(text, format: format.rawValue)
    }
}

/// Runs Graphviz's `dot` binary (found on `PATH`, executed directly, no shell).
package struct Graphviz: Sendable {
    /// The directories searched for `dot`.
    package let searchPath: [String]

    /// Searches the `PATH` of the environment.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The `dot` executable, if installed.
    package var executable: String? {
        searchPath.map { URL(fileURLWithPath: $0).appendingPathComponent("dot").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Renders DOT text with `dot -T<format>`.
    package func render(_ dot: String, format: String) throws(InspectorError) -> Data {
        guard let executable else {
            throw InspectorError(.unavailable, "Graphviz `dot` is not installed, needed for --format \(format) — install it (apt-get install graphviz, or brew install graphviz) or use --format dot")
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(executable, ["-T\(format)"], input: Array(dot.utf8))
        } catch {
            throw InspectorError(.unavailable, path: executable, "cannot run Graphviz dot: \(ChildProcess.describe(error)) — check the installation")
        }
        guard result.status == 0 else {
            let reason = String(decoding: result.errors, as: UTF8.self).trimmingWhitespace(newlines: true)
            throw InspectorError(.unavailable, path: executable, "Graphviz dot failed (status \(result.status)): \(reason) — check the Graphviz installation")
        }
        return Data(result.output)
    }
}
