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
}
