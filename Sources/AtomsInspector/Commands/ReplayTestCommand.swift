import AtomsJournalReader

/// `atoms-inspect replay-test`: a starting Swift Testing file that replays a journal against
/// today's atoms (`JournalReplay` in AtomsTesting).
///
/// The atoms the session wrote directly (the origin of a `set`, `modify`, `reset` or
/// `inspector` write, or restored) are driven; the others are checked. Family members,
/// scoped atoms, types that cannot be named in Swift from the journal (generic, modified or
/// local types), atoms recorded as dumps or asynchronous phases, and atoms derived from a
/// phase are left as commented lines saying why. Types are module-qualified and their
/// modules imported with `@testable`, as a test target imports the app it tests.
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
        /// How its first recorded value was written: `nil` before one was read.
        var form: Form?
    }

    /// How an atom's values are recorded.
    private enum Form {
        case json, dump, phase

        init(_ entry: ValueEntry) {
            self = entry.phase != nil ? .phase : entry.v != nil && entry.dump == nil ? .json : .dump
        }
    }

    /// The atoms of the journal and what the file does with each, sorted: driven, checked,
    /// then left out, each by type.
    ///
    /// - Complexity: Reads every transaction's envelope, and each atom's first value (to tell
    ///   JSON from dumps and phases).
    package static func plan(_ journal: InspectedJournal) throws(InspectorError) -> [Planned] {
        let reader = journal.reader
        var seen: [String: Seen] = [:]
        var identities: [Int: String] = [:]
        func note(_ declaration: AtomDeclaration) {
            identities[declaration.id] = declaration.identityKey
            if seen[declaration.identityKey] == nil { seen[declaration.identityKey] = Seen(declaration: declaration) }
        }
        func noteForms(_ values: [ValueEntry]) {
            for value in values where value.unchanged != true && value.delta == nil && value.patch == nil {
                guard let key = identities[value.id], seen[key]?.form == nil else { continue }
                seen[key]?.form = Form(value)
            }
        }
        /// Dependency edges ever recorded, by identity: watched → watching.
        var dependents: [String: Set<String>] = [:]
        func noteEdges(_ edges: [EdgeEntry]) {
            for edge in edges {
                if let from = identities[edge.from], let to = identities[edge.to] { dependents[from, default: []].insert(to) }
            }
        }
        let start = try journal.state(at: reader.firstStep)
        // By number: the first declaration of an identity names it, in every run.
        for declaration in start.declarations.values.sorted(by: { $0.id < $1.id }) { note(declaration) }
        noteForms(Array(start.values.values))
        noteEdges(Array(start.edges))
        // One transaction's envelope: what it declares and adds to the graph, and which atoms
        // it wrote (`changed`: a value different from the one before).
        func take(
            _ seq: Int, cause: String, origin: Int?, declare: [AtomDeclaration], edgesAdded: [EdgeEntry], created: Set<Int>,
            values: [(id: Int, changed: Bool)]
        ) throws(InspectorError) {
            for declaration in declare { note(declaration) }
            noteEdges(edgesAdded)
            // Changes (``TransactionRecord/changed(_:)``), not the first value of an atom created.
            for value in values where value.changed && !created.contains(value.id) {
                if let key = identities[value.id] { seen[key]?.changes += 1 }
            }
            let written: [Int] =
                switch cause {
                case "set", "modify", "reset", "inspector": origin.map { [$0] } ?? []
                case "restore": values.map(\.id)
                default: []
                }
            for id in written { if let key = identities[id] { seen[key]?.writes += 1 } }
            let unread = Set(values.map(\.id).filter { identities[$0].flatMap { seen[$0]?.form } == nil })
            if !unread.isEmpty {
                noteForms(try journal.transaction(seq, decodingValuesOf: unread).values ?? [])
            }
        }
        // Envelopes only, as `log` lists them: a line in the common shape (values of atoms
        // already declared, no graph change) is read from its bytes.
        var failure: InspectorError?
        do {
            try reader.forEachTransaction(from: reader.firstStep + 1, through: reader.lastStep) { listed in
                do throws(InspectorError) {
                    switch listed {
                    case .envelope(let envelope):
                        let values = envelope.atoms.indices.map { (id: envelope.atoms[$0], changed: !envelope.isEqualWrite(at: $0)) }
                        try take(
                            envelope.seq, cause: String(decoding: envelope.cause, as: UTF8.self), origin: envelope.origin == 0 ? nil : envelope.origin,
                            declare: [], edgesAdded: [], created: [], values: values
                        )
                    case .record(let record):
                        try take(
                            record.seq, cause: record.cause, origin: record.origin, declare: record.declare ?? [], edgesAdded: record.edgesAdded ?? [],
                            created: Set(record.created ?? []), values: (record.values ?? []).map { (id: $0.id, changed: record.changed($0.id)) }
                        )
                    }
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            throw InspectorError(error)
        }
        if let failure { throw failure }
        // What derives from an asynchronous phase depends on when its results arrived.
        var asynchronous: [String: String] = [:]
        var pending = seen.filter { $0.value.form == .phase }.map { ($0.key, $0.value.declaration.label) }.sorted { $0.0 < $1.0 }
        while let (key, source) = pending.popLast() {
            for dependent in (dependents[key] ?? []).sorted() where asynchronous[dependent] == nil {
                asynchronous[dependent] = source
                pending.append((dependent, source))
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
            } else if atom.form == .phase {
                planned.append(Planned(role: "none", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: "an asynchronous phase: a replay cannot make results arrive at their recorded steps; check what derives from it, or override it with a recorded result"))
            } else if let source = asynchronous[declaration.identityKey], atom.writes == 0 {
                planned.append(Planned(role: "none", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: "derives from the asynchronous \(source): its values depend on when results arrived; override that atom with a recorded result to check it"))
            } else if atom.form == .dump {
                planned.append(Planned(role: "none", type: declaration.type, writes: atom.writes, changes: atom.changes, reason: "recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable"))
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
        ] + modules.filter { !["Atoms", "AtomsTesting", "Testing"].contains($0) }.map { "@testable import \($0)" }
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
