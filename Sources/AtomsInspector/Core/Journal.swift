import AtomsJournal
import Foundation

/// A journal opened for inspection: the reader, with user-facing errors and step resolution.
public struct InspectedJournal: Sendable {
    /// The reader.
    public let reader: JournalReader

    /// Opens a journal; a progress indicator is drawn on stderr when `showProgress` and the
    /// file is large.
    ///
    /// - Throws: ``InspectorError`` with the documented exit status.
    public init(path: String, showProgress: Bool = false) throws(InspectorError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let progress: ((Double) -> Void)? = showProgress && size > 64 << 20 ? { fraction in
            StandardStream.error.write("\rloading \(path) \(Int(fraction * 100))%")
        } : nil
        do {
            reader = try JournalReader(path: path, progress: progress)
        } catch {
            if progress != nil { StandardStream.error.write("\r\u{1B}[K") }
            throw InspectorError(error)
        }
        if progress != nil { StandardStream.error.write("\r\u{1B}[K") }
    }

    /// The path.
    public var path: String { reader.path }

    /// Warnings to show on stderr.
    public var warnings: [String] {
        reader.warnings.map { "atoms-inspect: \($0)" }
    }

    /// The step a spec names in this journal.
    public func step(_ spec: StepSpec) throws(InspectorError) -> Int {
        try spec.resolve(first: reader.firstStep, last: reader.lastStep, journal: path)
    }

    /// The state at a step, with the values of `atoms` only (all when `nil`; none for an
    /// empty set: declarations, liveness and the graph).
    public func state(at step: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(InspectorError) -> JournalState {
        do {
            return try reader.state(at: step, decodingValuesOf: atoms)
        } catch {
            throw InspectorError(error)
        }
    }

    /// A transaction, with the values of `atoms` only (all when `nil`).
    public func transaction(_ seq: Int, decodingValuesOf atoms: Set<Int>? = nil) throws(InspectorError) -> TransactionRecord {
        do {
            return try reader.transaction(seq, decodingValuesOf: atoms)
        } catch {
            throw InspectorError(error)
        }
    }

    /// Every atom declared by `step`: in the first keyframe and in any transaction up to it,
    /// whether live or not. A keyframe declares only what is live, so a state read from one
    /// knows only some of the atoms released before; names of those are found here.
    ///
    /// - Complexity: One transaction envelope per step; values are not decoded.
    public func declarations(through step: Int) throws(InspectorError) -> [Int: AtomDeclaration] {
        var declarations = try state(at: reader.firstStep, decodingValuesOf: []).declarations
        guard step > reader.firstStep else { return declarations }
        for seq in (reader.firstStep + 1)...step {
            for declaration in try transaction(seq, decodingValuesOf: []).declare ?? [] {
                declarations[declaration.id] = declaration
            }
        }
        return declarations
    }

    /// Atoms of a state matching a name pattern, or a usage error naming the pattern.
    public func atoms(matching pattern: String, in state: JournalState) throws(InspectorError) -> [AtomDeclaration] {
        let matches = state.atoms(matching: pattern)
        guard !matches.isEmpty else {
            let known = state.liveAtoms.map(\.displayName).prefix(8).joined(separator: ", ")
            throw InspectorError(.usage, path: path, "no atom matches '\(pattern)' at step \(state.step) — live atoms: \(known.isEmpty ? "none" : known)")
        }
        return matches
    }
}
