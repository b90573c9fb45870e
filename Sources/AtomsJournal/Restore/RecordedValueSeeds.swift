import Atoms
import Foundation

/// Recorded JSON values offered to a store as ``Atoms/AtomValueSeeds``: an atom whose type,
/// key and scope match takes the value, decoded as its own type.
@MainActor
public final class RecordedValueSeeds: AtomValueSeeds {
    private let values: [String: JSONValue]
    /// Atoms that took a recorded value, by display name.
    public private(set) var applied: [String] = []
    /// Atoms whose recorded value could not be decoded as their type, with the reason.
    public private(set) var failures: [String] = []

    /// Seeds from a state file.
    public convenience init(stateFile: StateFile) {
        self.init(values: Dictionary(stateFile.atoms.map { ($0.identityKey, $0.value) }, uniquingKeysWith: { $1 }))
    }

    /// Seeds from a recorded state: every restorable live atom.
    public convenience init(state: JournalState) {
        self.init(stateFile: StateFile(state: state, journal: nil))
    }

    init(values: [String: JSONValue]) {
        self.values = values
    }

    /// An atom's identity as the journal writes it: `TYPE|KEY|SCOPE`
    /// (``AtomDeclaration/identityKey``), the key of the seeds' values.
    package nonisolated static func key(of atom: AtomIdentity) -> String {
        "\(atom.typeName)|\(atom.keyDescription ?? "")|\(atom.scope.map { String($0.id) } ?? "")"
    }

    /// A recorded JSON value decoded as `type`, as a seed is, and as a default `JSONDecoder`
    /// decodes its bytes (``JSONValueDecoder``): non-finite numbers from the strings the
    /// recorder writes for them.
    ///
    /// - Throws: The decoding error when the value does not fit the type.
    package nonisolated static func decoded<Value: Decodable>(_ json: JSONValue, as type: Value.Type) throws -> Value {
        try JSONValueDecoder.decode(type, from: json)
    }

    /// The recorded value of the atom with this type, key and scope, decoded as `Value`; `nil` when none was recorded or it does not decode (noted in ``failures``).
    public func value<Value>(for atom: AtomIdentity, as type: Value.Type) -> Value? {
        guard let json = values[Self.key(of: atom)] else {
            return nil
        }
        guard let decodable = Value.self as? any Decodable.Type else {
            failures.append("\(atom): \(Value.self) is not Decodable")
            return nil
        }
        do {
            let value = try Self.decoded(json, as: decodable)
            applied.append(atom.description)
            return value as? Value
        } catch {
            failures.append("\(atom): \(LineScanner.describe(error, lineStart: 0))")
            return nil
        }
    }
}

public extension AtomStore {
    /// Makes atoms start from the values in a state file written by `atoms-inspect restore`:
    /// each matching atom takes its recorded value when first used.
    ///
    /// - Returns: The seeds, whose ``RecordedValueSeeds/applied`` and
    ///   ``RecordedValueSeeds/failures`` report what happened as atoms are used, and the atoms
    ///   the file itself lists as skipped.
    /// - Throws: ``JournalError`` when the file cannot be read or is not a state file.
    @discardableResult
    func loadState(from path: String) throws(JournalError) -> (seeds: RecordedValueSeeds, skipped: [StateFile.Skipped]) {
        let file = try StateFile.read(path: path)
        let seeds = RecordedValueSeeds(stateFile: file)
        seed(with: seeds)
        return (seeds, file.skipped)
    }

    /// Restores this live store to the recorded state at `step` of a journal: cached atoms
    /// that match take their recorded values now (one `restore` transaction), and atoms used
    /// later start from theirs.
    ///
    /// - Returns: The seeds, reporting what was applied and what could not be decoded.
    /// - Throws: ``JournalError`` when the step is out of range or the journal is damaged.
    @discardableResult
    func restore(from journal: JournalReader, step: Int, fileID: String = #fileID, line: UInt = #line) throws(JournalError) -> RecordedValueSeeds {
        let seeds = RecordedValueSeeds(state: try journal.state(at: step))
        seed(with: seeds)
        restoreValues(from: seeds, fileID: fileID, line: line)
        return seeds
    }
}
