#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The restorable state at one step of a journal, as a file a program loads at start.
///
/// Written by `atoms-inspect restore` (or ``init(state:journal:)`` and ``write(to:)``); loaded with
/// ``Atoms/AtomStore/loadState(from:)``. Atoms are matched by module-qualified type, key and scope.
public struct StateFile: Codable, Sendable, Equatable {
    /// An atom and its recorded value.
    public struct Entry: Codable, Sendable, Equatable {
        /// The graph label.
        public var label: String
        /// The module-qualified type name.
        public var type: String
        /// The atom-family key, if any.
        public var key: String?
        /// The scope, if any.
        public var scope: Int?
        /// The value as JSON.
        public var value: JSONValue

        /// Type, key and scope, as journal declarations spell them.
        package var identityKey: String {
            "\(type)|\(key ?? "")|\(scope.map(String.init) ?? "")"
        }
    }

    /// An atom that could not be included, and why.
    public struct Skipped: Codable, Sendable, Equatable {
        /// The graph label, with the key for family members.
        public var atom: String
        /// The module-qualified type name.
        public var type: String
        /// Why it was left out.
        public var reason: String
    }

    /// Always `atoms-state`.
    public var format: String
    /// The format version (1).
    public var version: Int
    /// The journal the state came from, when known.
    public var journal: String?
    /// The step the state is the state after.
    public var step: Int
    /// The restorable atoms, sorted by label.
    public var atoms: [Entry]
    /// The live atoms that are not included.
    public var skipped: [Skipped]

    /// The name of the format.
    public static let formatName = "atoms-state"

    /// The state file for a recorded state.
    public init(state: JournalState, journal: String?) {
        format = Self.formatName
        version = 1
        self.journal = journal
        step = state.step
        atoms = []
        skipped = []
        for atom in state.liveAtoms {
            let entry = state.values[atom.id]!
            if entry.redacted == true {
                skipped.append(Skipped(atom: atom.displayName, type: atom.type, reason: "redacted: its value was never recorded"))
            } else if let phase = entry.phase {
                skipped.append(Skipped(atom: atom.displayName, type: atom.type, reason: "asynchronous (\(phase)): re-run by the program, not restored"))
            } else if let value = entry.v, entry.norestore != true {
                atoms.append(Entry(label: atom.label, type: atom.type, key: atom.key, scope: atom.scope, value: value))
            } else {
                skipped.append(Skipped(atom: atom.displayName, type: atom.type, reason: "not restorable: its value is not Codable"))
            }
        }
    }

    /// Reads a state file.
    ///
    /// - Throws: ``JournalError/cannotRead(path:reason:)`` or
    ///   ``JournalError/malformedStateFile(path:reason:)``.
    public static func read(path: String) throws(JournalError) -> StateFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .cannotRead(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        let file: StateFile
        do {
            file = try JSONDecoder().decode(StateFile.self, from: data)
        } catch {
            throw .malformedStateFile(path: path, reason: LineScanner.describe(error, lineStart: 0))
        }
        guard file.format == formatName else {
            throw .malformedStateFile(path: path, reason: "format is \(file.format.debugDescription), expected \"\(formatName)\"")
        }
        guard file.version == 1 else {
            throw .malformedStateFile(path: path, reason: "version \(file.version) is not supported (expected 1)")
        }
        return file
    }

    /// Writes the state file (pretty-printed JSON; a new file gets mode 0600, since values may
    /// be private), where the path points: see ``OutputFile``.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` or
    ///   ``JournalError/writeFailed(path:reason:)``.
    public func write(to path: String) throws(JournalError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw .cannotCreate(path: path, reason: "the state cannot be encoded: \(error)")
        }
        data.append(0x0A)
        try OutputFile.write(data, to: path, permissions: 0o600)
    }
}
