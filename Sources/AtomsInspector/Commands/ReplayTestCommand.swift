import AtomsJournalReader

/// `atoms-inspect replay-test`: a starting Swift Testing file that replays a journal against
/// today's atoms (`JournalReplay` in AtomsTesting).
///
/// The atoms the session wrote directly (the origin of a `set`, `modify`, `reset` or
/// `inspector` write, or restored) are driven, and so are its asynchronous atoms (the origin
/// of an `async-result` or `refresh`, or recorded as phases): a replay delivers their recorded
/// results, named in Swift with their modifier (`SearchAtom().phase`,
/// `QueryAtom().debounce(for: 0.3)`). The others are checked. Family members, scoped atoms,
/// types that cannot be named in Swift from the journal (generic or local types, modifiers
/// made from closures or key paths), atoms recorded as dumps, and atoms derived from an
/// asynchronous atom the replay cannot drive are left as commented lines saying why. Types are module-qualified and their
/// modules imported with `@testable`, as a test target imports the app it tests.
package enum ReplayTestCommand {
    /// What the file does with one recorded atom (or one family).
    package struct Planned: Equatable, Sendable {
        /// `drive`, `check`, or `none` for a commented line.
        package let role: String
        /// The module-qualified type.
        package let type: String
        /// The Swift expression that makes the atom (`App.SearchAtom().phase`); `nil` for a
        /// commented line.
        package let expression: String?
        /// Transactions that wrote it directly.
        package let writes: Int
        /// Results delivered to it: changes in `async-result` and `refresh` transactions it
        /// started.
        package var deliveries: Int = 0
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
        /// Changes in transactions it started that a task or timer ended: an `async-result`
        /// or `refresh` whose origin it is.
        var deliveries = 0
        /// How its first recorded value was written: `nil` before one was read.
        var form: Form?
        /// For a phase: whether a recorded success was read yet, and whether it was a dump
        /// alone (its value is not `Codable`): a replay then has no value to deliver, and
        /// `drive(….phase)` would not compile.
        var successRead = false
        var successIsDump = false
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
    /// - Complexity: Reads every transaction's envelope, each atom's first value (to tell
    ///   JSON from dumps and phases), and a phase's changes until its first success.
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
                guard let key = identities[value.id] else { continue }
                if seen[key]?.form == nil { seen[key]?.form = Form(value) }
                if value.phase == "success", seen[key]?.successRead == false {
                    seen[key]?.successRead = true
                    seen[key]?.successIsDump = value.v == nil && value.dump != nil
                }
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
            if cause == "async-result" || cause == "refresh", let origin, values.contains(where: { $0.id == origin && $0.changed }), let key = identities[origin] {
                seen[key]?.deliveries += 1
            }
            let written: [Int] =
                switch cause {
                case "set", "modify", "reset", "inspector": origin.map { [$0] } ?? []
                case "restore": values.map(\.id)
                default: []
                }
            for id in written { if let key = identities[id] { seen[key]?.writes += 1 } }
            // Each atom's first value, and a phase's values until one success shows whether the
            // phase's value is JSON.
            let unread = Set(values.filter { value in
                guard let key = identities[value.id], let atom = seen[key] else { return false }
                return atom.form == nil || (atom.form == .phase && !atom.successRead && value.changed)
            }.map(\.id))
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
        var families: [String: [Seen]] = [:]
        var roles: [String: Planned] = [:]
        func plan(_ atom: Seen, _ role: String, _ expression: String? = nil, _ reason: String? = nil) {
            roles[atom.declaration.identityKey] = Planned(
                role: role, type: atom.declaration.type, expression: expression, writes: atom.writes, deliveries: atom.deliveries, changes: atom.changes, reason: reason
            )
        }
        // A task atom whose `.phase` is driven: its `Task` takes the delivered outcome.
        var tasksDrivenByPhase: [String: String] = [:]
        for atom in seen.values.sorted(by: { $0.declaration.identityKey < $1.declaration.identityKey }) {
            let declaration = atom.declaration
            let expression = SwiftAtomName.expression(type: declaration.type, key: declaration.key)
            let isAsynchronous = atom.deliveries > 0 || atom.form == .phase
            if let scope = declaration.scope {
                plan(atom, "none", nil, "stored in scope \(scope): a replay drives and checks atoms at the root only")
            } else if declaration.key != nil, SwiftAtomName.modified(declaration.type) == nil {
                families[declaration.type, default: []].append(atom)
            } else if expression == nil {
                plan(atom, "none", nil, "a generic, local or modified type this command cannot name (a modifier made from a closure or a key path): name it in Swift yourself")
            } else if atom.form == .phase, atom.successIsDump {
                plan(atom, "none", nil, "its results are recorded as dumps (its success value is not Codable): a replay has no value to deliver; make the value Codable to drive it")
            } else if isAsynchronous, atom.form != .dump, let expression {
                plan(atom, "drive", expression)
                if atom.form == .phase, let base = SwiftAtomName.modified(declaration.type)?.base { tasksDrivenByPhase[base] = expression }
            } else if atom.form == .dump {
                plan(atom, "none", nil, "recorded as a dump (not Codable): it cannot be driven, and dumps of tasks and objects rarely match; check it yourself if its dump is stable")
            } else if let expression {
                plan(atom, atom.writes > 0 ? "drive" : "check", expression)
            }
        }
        for atom in seen.values where roles[atom.declaration.identityKey]?.role == "none" && atom.declaration.scope == nil {
            if let phase = tasksDrivenByPhase[atom.declaration.type] {
                plan(atom, "none", nil, "a task, recorded as a dump (a Task is not Codable): the replay drives it through its phase, \(phase), and code awaiting the task takes the recorded outcome")
            }
        }
        // What derives from an asynchronous atom the replay cannot drive depends on when its
        // results arrived: left out, saying which.
        var pending = seen.values.filter { atom in
            (atom.deliveries > 0 || atom.form == .phase) && roles[atom.declaration.identityKey]?.role == "none" && tasksDrivenByPhase[atom.declaration.type] == nil
        }.map { ($0.declaration.identityKey, $0.declaration.label) }.sorted { $0.0 < $1.0 }
        var asynchronous: Set<String> = []
        while let (key, source) = pending.popLast() {
            for dependent in (dependents[key] ?? []).sorted() where !asynchronous.contains(dependent) {
                asynchronous.insert(dependent)
                guard let planned = roles[dependent], planned.role == "check", let atom = seen[dependent] else { continue }
                plan(atom, "none", nil, "derives from the asynchronous \(source), which the replay cannot drive: its values depend on when results arrived; override that atom with a recorded result to check it")
                pending.append((dependent, source))
            }
        }
        var planned = Array(roles.values)
        for (type, members) in families {
            let keys = members.compactMap(\.declaration.key).sorted()
            let shown = keys.prefix(3).joined(separator: ", ") + (keys.count > 3 ? ", …" : "")
            let writes = members.reduce(0) { $0 + $1.writes }
            planned.append(Planned(
                role: "none", type: type, expression: nil, writes: writes, deliveries: 0, changes: members.reduce(0) { $0 + $1.changes },
                reason: "a family of \(keys.count) member\(keys.count == 1 ? "" : "s") (keys \(shown)): \(writes > 0 ? "drive" : "check") it with a closure making the member from its key"
            ))
        }
        let order = ["drive": 0, "check": 1, "none": 2]
        return planned.sorted { (order[$0.role] ?? 2, $0.type) < (order[$1.role] ?? 2, $1.type) }
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
    ///   - until: A condition (`find --where`'s language): the file is then a regression test
    ///     that shrinks the session and fails while today's atoms still make the condition true
    ///     (``untilSource(_:path:condition:)``); `nil` for a replay that checks every step.
    /// - Throws: ``InspectorError`` for a journal that cannot be read, and for a condition that
    ///   does not parse, names an atom the journal lacks or one the file cannot replay, or that
    ///   the recording never reaches.
    package static func source(_ journal: InspectedJournal, path: String, until condition: String? = nil) throws(InspectorError) -> String {
        let planned = try plan(journal)
        var reached: Int?
        if let condition {
            reached = try check(condition, in: journal, planned: planned)
        }
        let base = baseName(of: path)
        let modules = Set(planned.filter { $0.role != "none" }.compactMap { ($0.expression ?? $0.type).split(separator: ".").first.map(String.init) }).sorted()
        let recorded = "\(path) (\(journal.reader.header.program.map { "recorded by \($0), " } ?? "")\(journal.reader.transactionCount) transactions)"
        var lines: [String]
        if let condition, let reached {
            lines = [
                "// Replays \(recorded) against today's atoms, shrunk to the fewest writes",
                "// under which \(condition) becomes true (the recording reaches it at step \(reached)).",
                "// Written by `atoms-inspect replay-test --until`: it fails, printing the kept steps and the shrunk",
                "// journal, while today's atoms still reach the condition; once the bug is fixed it passes.",
                "// Edit freely; see \"A recorded session as a test\" in the README.",
            ]
        } else {
            lines = [
                "// Replays \(recorded) against today's atoms.",
                "// Written by `atoms-inspect replay-test`: the atoms the session wrote are driven, the others",
                "// checked after every step. Edit freely; see \"A recorded session as a test\" in the README.",
            ]
        }
        lines += ["import Atoms", "import AtomsTesting", "import Testing"]
            + modules.filter { !["Atoms", "AtomsTesting", "Testing"].contains($0) }.map { "@testable import \($0)" }
        lines += [
            "",
            "@Suite(.atomJournal) @MainActor",
            condition == nil ? "struct \(typeName(base))ReplayTests {" : "struct \(typeName(base))RegressionTests {",
            condition == nil ? "    @Test func \(functionName(base))SessionStillBehaves() throws {" : "    @Test func \(functionName(base))SessionNeverReachesTheCondition() throws {",
            "        let replay = try JournalReplay(journal: \(quoted(path)))",
        ]
        for atom in planned {
            let counts = (atom.writes > 0 ? "written \(times(atom.writes)), " : "") + (atom.deliveries > 0 ? "delivered \(times(atom.deliveries)), " : "") + "changed \(times(atom.changes))"
            switch atom.role {
            case "none":
                lines.append("        // \(atom.type): \(atom.reason ?? "") (\(counts))")
            default:
                // A shrink replays parts of the session: what is not driven is read, not compared.
                let role = condition != nil && atom.role == "check" ? "watch" : atom.role
                lines.append("        replay.\(role)(\(atom.expression ?? atom.type + "()"))  // \(counts)")
            }
        }
        if let condition {
            lines.append("        try replay.expectNever(\(quoted(condition)), in: AtomTestContext.init)")
        } else {
            lines.append("        try replay.run(in: AtomTestContext())")
        }
        lines += [
            "    }",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Checks a regression test's condition against the journal and the plan.
    ///
    /// - Returns: The first step where the recording makes it true.
    /// - Throws: ``InspectorError`` (usage) for a condition that does not parse (naming the
    ///   column), names an atom the journal lacks or one the file leaves out (saying why), or
    ///   that the recording never reaches.
    private static func check(_ condition: String, in journal: InspectedJournal, planned: [Planned]) throws(InspectorError) -> Int {
        let bound = try FindCommand.bind(condition, in: journal)
        let declarations = try journal.declarations(through: journal.reader.lastStep)
        for path in bound.expression.paths {
            guard let identity = bound.identity(of: path), let declaration = declarations.values.first(where: { $0.identityKey == identity }) else { continue }
            if let left = planned.first(where: { $0.type == declaration.type && $0.role == "none" }) {
                throw InspectorError(
                    .usage, path: journal.path,
                    "--until reads \(path.atom) (column \(path.column)), which a replay cannot drive or watch: \(left.reason ?? "it is left out") — name another atom in the condition"
                )
            }
        }
        guard let first = try FindCommand.find(journal, where: condition, mode: .first).steps.first else {
            throw InspectorError(
                .usage, path: journal.path,
                "the recording never reaches --until '\(condition)': a test of it would pass from the start — check the condition with `atoms-inspect find \(journal.path) --where '\(condition)'`"
            )
        }
        return first.step
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
    package static func run(_ journal: InspectedJournal, path: String, until condition: String? = nil, output: String?) throws(InspectorError) -> String {
        let text = try source(journal, path: path, until: condition)
        guard let output else { return text }
        do {
            try OutputFile.write(Array(text.utf8), to: output)
        } catch {
            throw InspectorError(error)
        }
        return ""
    }
}
