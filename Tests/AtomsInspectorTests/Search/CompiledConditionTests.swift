import AtomsJournal
import Foundation
import Testing
@testable import AtomsInspector

/// Conditions decided on the bytes a line wrote (``CompiledCondition``, integers on their
/// digits) against the same conditions evaluated on fully decoded states, for every
/// comparison and a few combinations, on the shipped journals.
struct CompiledConditionTests {
    static let samples = ["counter", "todo", "numpad", "movies"].map { name in
        SearchDifferentialTests.journals.first { $0.hasSuffix("samples/journals/\(name).jsonl") }!
    }

    @Test(arguments: samples)
    func comparisonsOnBytesFindWhatDecodedValuesFind(path: String) throws {
        let journal = try InspectedJournal(path: path)
        let reader = journal.reader
        let last = try journal.state(at: reader.lastStep)
        let middle = try journal.state(at: (reader.firstStep + reader.lastStep) / 2)
        var expressions: [String] = []
        var names: [String] = []
        for atom in last.liveAtoms.prefix(8) {
            let name = "'\(atom.displayName.replacingOccurrences(of: "'", with: ""))'"
            names.append(name)
            for state in [middle, last] {
                guard case .number(let number)? = state.values[atom.id]?.v, let value = number.int64 else { continue }
                for literal in ["\(value)", "\(value + 1)", "\(value - 1)", "\(value).0", "\(-value)", "-0"] {
                    for comparison in WhereExpression.Comparison.allCases {
                        expressions.append("\(name) \(comparison.rawValue) \(literal)")
                    }
                }
                expressions.append("!(\(name) == \(value)) && \(name) >= 0")
                expressions.append("\(name) < \(value) || \(name) == true")
                expressions.append("\(value) <= \(name)")
            }
            expressions.append("\(name) == true")
            expressions.append("\(name) == false")
            expressions.append("\(name) == null")
        }
        if names.count >= 2 {
            expressions.append("\(names[0]) == \(names[1])")
            expressions.append("\(names[0]) > \(names[1]) || \(names[1]) == 1")
        }
        #expect(!expressions.isEmpty)
        for expression in expressions {
            let bound = try FindCommand.bind(expression, in: journal)
            for mode in [FindCommand.Mode.becomesTrue, .all] {
                let fast = try FindCommand.find(journal, where: expression, mode: mode)
                let full = try SearchDifferentialTests.decodedSteps(journal, bound, holding: mode == .all)
                #expect(fast.steps.map(\.step) == full, "\(path): \(expression) (\(mode))")
                // The values reported at a step found are the state's there.
                for match in fast.steps.prefix(3) {
                    let state = try journal.state(at: match.step)
                    for path in bound.expression.paths {
                        #expect(match.values[path.description] == bound.value(of: path, in: state.values), "\(path) at \(match.step)")
                    }
                }
            }
        }
    }

    /// A damaged journal may declare an atom again while it is live: two numbers with a value
    /// for one identity. The expression and the compiled condition both read the lowest
    /// number's value, whether the other's comes from a state or from a line's bytes.
    @Test func anIdentityDeclaredTwiceIsReadAtItsLowestNumber() throws {
        var declarations = [3: AtomDeclaration(id: 3, label: "CountAtom", type: "app.CountAtom")]
        var values = [3: ValueEntry(id: 3, v: .number(JSONNumber(5)))]
        // Many numbers, so that a set's order (which varies from process to process) all but
        // never yields the lowest first.
        for id in 7..<24 {
            declarations[id] = AtomDeclaration(id: id, label: "Count", type: "app.CountAtom")
            values[id] = ValueEntry(id: id, v: .number(JSONNumber(9)))
        }
        let bound = try BoundExpression(WhereExpression.parse("CountAtom == 5"), declarations: declarations, journal: "j.jsonl")
        let path = try #require(bound.expression.paths.first)
        #expect(bound.value(of: path, in: values) == .number(JSONNumber(5)))
        #expect(bound.holds(in: values))
        let condition = CompiledCondition(bound)
        // Number 7's new value as a skipped line's bytes: number 3's value still decides.
        let nine = Array("9".utf8)
        let four = Array("4".utf8)
        #expect(nine.withUnsafeBytes { bytes in condition.holds(in: values, pending: { $0 == 7 ? bytes : nil }) })
        // Number 3's new value as bytes is read before number 7's.
        #expect(!four.withUnsafeBytes { bytes in condition.holds(in: values, pending: { $0 == 3 ? bytes : nil }) })
        // With no value for number 3, number 7's is read.
        #expect(!condition.holds(in: [7: values[7]!], pending: { _ in nil }))
    }
}
