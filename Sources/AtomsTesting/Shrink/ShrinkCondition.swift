import Atoms
import AtomsInspector
import AtomsJournal

/// A shrink's condition: `find --where`'s language, bound to the journal's atoms and evaluated
/// on today's values (in the form the recorder writes them) of the atoms a replay drives,
/// checks or watches.
@MainActor
struct ShrinkCondition {
    /// As written.
    let text: String
    private let bound: BoundExpression
    /// For each journal number the expression reads: the replay's member standing for it.
    private let members: [Int: ReplayedMember]
    private let form = RecordedForm()

    /// Parses `text` and binds it to the atoms of the journal the replay names.
    ///
    /// - Throws: ``JournalReplayFailure`` for text that does not parse (naming the column), an
    ///   atom the journal does not have, or one the replay neither drives, checks nor watches.
    init(_ text: String, journal: InspectedJournal, declarations: [Int: AtomDeclaration], bindings: ReplayBindings) throws(JournalReplayFailure) {
        self.text = text
        let expression: WhereExpression
        do {
            expression = try WhereExpression.parse(text)
            bound = try BoundExpression(expression, declarations: declarations, journal: journal.path)
        } catch {
            throw JournalReplayFailure(journal: journal.path, detail: "the condition \(Self.quoted(text)) \(Self.reason(error))")
        }
        var members: [Int: ReplayedMember] = [:]
        for path in expression.paths {
            let identity = bound.identity(of: path)
            let numbers = declarations.values.filter { $0.identityKey == identity }.map(\.id).sorted()
            guard let member = numbers.lazy.compactMap({ bindings.bound[$0]?.member }).first else {
                let named = bindings.atoms.map(\.name).joined(separator: ", ")
                throw JournalReplayFailure(
                    journal: journal.path, atom: path.atom,
                    detail: "the condition \(Self.quoted(text)) reads \(path.atom) (column \(path.column)), which the replay neither drives, checks nor watches — \(Self.watchAdvice(numbers.compactMap { declarations[$0] })) (the replay names \(named.isEmpty ? "no atoms" : named))"
                )
            }
            for number in numbers { members[number] = member }
        }
        self.members = members
    }

    /// What to add so the replay reads an atom: `replay.watch(…)` with the atom written in
    /// Swift as the journal declares it (module-qualified, modifiers included), or, where the
    /// journal cannot say how to make it (a family member, a generic or local type), what to
    /// write by hand.
    private static func watchAdvice(_ declarations: [AtomDeclaration]) -> String {
        guard let declaration = declarations.first else { return "watch it with `replay.watch(_:)`" }
        if let scope = declaration.scope {
            return "it is stored in scope \(scope), and a replay reads atoms at the root only: write the condition on an atom of the root"
        }
        if let expression = SwiftAtomName.expression(type: declaration.type, key: declaration.key) {
            return "add `replay.watch(\(expression))`"
        }
        return "add `replay.watch(_:)` with the atom of type \(declaration.type)\(declaration.key.map { " and key \($0)" } ?? "") written in Swift"
    }

    /// Whether the condition holds on today's values in `context`.
    func holds(in context: AtomTestContext) -> Bool {
        var values: [Int: ValueEntry] = [:]
        var encoded: [AtomIdentity: ValueEntry] = [:]
        for (number, member) in members {
            if encoded[member.identity] == nil, let value = member.current(context) {
                encoded[member.identity] = form.entry(of: value, for: member.identity)
            }
            if var entry = encoded[member.identity] {
                entry.id = number
                values[number] = entry
            }
        }
        return bound.holds(in: values)
    }

    /// The condition as a Swift-style quoted string.
    static func quoted(_ text: String) -> String {
        "'" + text + "'"
    }

    /// What a parse or binding error says, after "the condition … ".
    private static func reason(_ error: InspectorError) -> String {
        // The inspector's message names the journal first; the failure names it already.
        let message = error.message
        return "does not make sense: \(message)"
    }
}
