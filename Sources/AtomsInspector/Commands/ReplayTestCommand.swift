import AtomsJournalReader

/// `atoms-inspect replay-test`: a starting Swift Testing file that replays a journal against
/// today's atoms (`JournalReplay` in AtomsTesting).
///
/// The atoms the session wrote directly (the origin of a `set`, `modify` or `reset`, or
/// restored) are driven; the others are checked. Family members, scoped atoms, types that
/// cannot be named in Swift from the journal (generic, modified or local types) and atoms
/// written with values that are not JSON are left as commented lines saying why.
package enum ReplayTestCommand {
    /// What the file does with one recorded atom (or one family).
    package struct Planned: Equatable, Sendable {
        /// `drive`, `check`, or `none` for a commented line.
        package let role: String
        /// The module-qualified type.
        package let type: String
        /// Transactions that wrote it directly.
        package let writes: Int
        /// Transactions that changed its value.
        package let changes: Int
        /// For a commented line: why it is left out.
        package let reason: String?
    }

    /// What was recorded of one atom identity.
    private struct Seen {
        var declaration: AtomDeclaration
        var writes = 0
        var changes = 0
        var writtenAsDump = false
    }

    /// The atoms of the journal and what the file does with each, sorted: driven, checked,
    /// then left out, each by type.
    ///
    /// - Complexity: Reads every transaction's envelope, and the values of the atoms written
    ///   directly (to tell JSON from dumps).
    package static func plan(_ journal: InspectedJournal) throws(InspectorError) -> [Planned] {
        let reader = journal.reader
        var seen: [String: Seen] = [:]
        var identities: [Int: String] = [:]
        func note(_ declaration: AtomDeclaration) {
            identities[declaration.id] = declaration.identityKey
            if seen[declaration.identityKey] == nil { seen[declaration.identityKey] = Seen(declaration: declaration) }
        }
        for declaration in try journal.state(at: reader.firstStep, decodingValuesOf: []).declarations.values { note(declaration) }
        if reader.lastStep > reader.firstStep {
            for seq in (reader.firstStep + 1)...reader.lastStep {
                let envelope = try journal.transaction(seq, decodingValuesOf: [])
                for declaration in envelope.declare ?? [] { note(declaration) }
                let created = Set(envelope.created ?? [])
                for value in envelope.values ?? [] where value.unchanged != true && !created.contains(value.id) {
                    if let key = identities[value.id] { seen[key]?.changes += 1 }
                }
                let written: [Int] =
                    switch envelope.cause {
                    case "set", "modify", "reset": envelope.origin.map { [$0] } ?? []
                    case "restore": (envelope.values ?? []).map(\.id)
                    default: []
                    }
                guard !written.isEmpty else { continue }
                let record = try journal.transaction(seq, decodingValuesOf: Set(written))
                for value in record.values ?? [] where written.contains(value.id) {
                    guard let key = identities[value.id] else { continue }
                    seen[key]?.writes += 1
                    if value.dump != nil || value.phase != nil { seen[key]?.writtenAsDump = true }
                }
            }
        }
        var families: [String: [Seen]] = [:]
        var planned: [Planned] = []
        for atom in seen.values {
            let declaration = atom.declaration
            if let scope = declaration.scope {
                planned.append(Planned(role: "none", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: "stored in scope \(scope): a replay drives and checks atoms at the root only"))
            } else if !isNameable(declaration.type) {
                planned.append(Planned(role: "none", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: "a generic, modified or local type: name it in Swift yourself"))
            } else if declaration.key != nil {
                families[declaration.type, default: []].append(atom)
            } else if atom.writes > 0 && atom.writtenAsDump {
                planned.append(Planned(role: "none", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: "written with values that are not JSON (not Codable): it cannot be driven; check it instead"))
            } else {
                planned.append(Planned(role: atom.writes > 0 ? "drive" : "check", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: nil))
            }
        }
        for (type, members) in families {
            let keys = members.compactMap(\.declaration.key).sorted()
            let shown = keys.prefix(3).joined(separator: ", ") + (keys.count > 3 ? ", …" : "")
            let writes = members.reduce(0) { $0 + $1.writes }
            planned.append(Planned(
                role: "none", type: type, writes: writes, changes: members.reduce(0) { $0 + $1.changes },
                reason: "a family of \(keys.count) member\(keys.count == 1 ? "" : "s") (keys \(shown)): \(writes > 0 ? "drive" : "check") it with a closure making the member from its key"
            ))
        }
        let order = ["drive": 0, "check": 1, "none": 2]
        return planned.sorted { (order[$0.role]!, $0.type) < (order[$1.role]!, $1.type) }
    }

    /// Whether a recorded type name can be written in Swift as it is: dotted identifiers.
    static func isNameable(_ type: String) -> Bool {
        !type.isEmpty && type.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first == "_" || first.isLetter else { return false }
            return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        }
    }

    /// The Swift Testing file.
    ///
    /// - Parameters:
    ///   - journal: The journal.
    ///   - path: The journal's path as the test opens it (relative to the package).
    package static func source(_ journal: InspectedJournal, path: String) throws(InspectorError) -> String {
        let planned = try plan(journal)
        let base = baseName(of: path)
        let modules = Set(planned.filter { $0.role != "none" }.compactMap { $0.type.split(separator: ".").first.map(String.init) }).sorted()
        var lines = [
            "// Replays \(path) (\(journal.reader.header.program.map { "recorded by \($0), " } ?? "")\(journal.reader.transactionCount) transactions) against today's atoms.",
            "// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others",
            "// checked after every step. Edit freely; see \"A recorded session as a test\" in the README.",
            "import Atoms",
            "import AtomsTesting",
            "import Testing",
        ] + modules.filter { !["Atoms", "AtomsTesting", "Testing"].contains($0) }.map { "import \($0)" }
        lines += [
            "",
            "@Suite(.atomJournal) @MainActor",
            "struct \(typeName(base))ReplayTests {",
            "    @Test func \(functionName(base))SessionStillBehaves() throws {",
            "        let replay = try JournalReplay(journal: \(quoted(path)))",
        ]
        for atom in planned {
            let counts = (atom.writes > 0 ? "written \(times(atom.writes)), " : "") + "changed \(times(atom.changes))"
            switch atom.role {
            case "none":
                lines.append("        // \(atom.type): \(atom.reason ?? "") (\(counts))")
            default:
                lines.append("        replay.\(atom.role)(\(atom.type)())  // \(counts)")
            }
        }
        lines += [
            "        try replay.run(in: AtomTestContext())",
            "    }",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func times(_ count: Int) -> String {
        count == 1 ? "once" : "\(count) times"
    }

    /// The file name without folders and extension.
    private static func baseName(of path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.split(separator: ".").first.map(String.init) ?? file
    }

    /// Words of a name: runs of letters and digits.
    private static func words(_ name: String) -> [String] {
        name.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }.map(String.init)
    }

    private static func typeName(_ name: String) -> String {
        let joined = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first?.isLetter == true ? joined : "Journal" + joined
    }

    private static func functionName(_ name: String) -> String {
        let type = typeName(name)
        return type.prefix(1).lowercased() + type.dropFirst()
    }

    /// A Swift string literal.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// The file, on stdout or written to `output`.
    package static func run(_ journal: InspectedJournal, path: String, output: String?) throws(InspectorError) -> String {
        let text = try source(journal, path: path)
        guard let output else { return text }
        do {
            try OutputFile.write(Array(text.utf8), to: output)
        } catch {
            throw InspectorError(error)
        }
        return ""
    }
}
