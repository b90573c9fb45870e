import AtomsJournal
import Foundation
import Testing
@testable import AtomsInspector

/// The search that skips lines on their bytes (``TransactionWalk``) against full decoding:
/// every value of every step decoded by the reader, the expression evaluated at each step.
/// On every shipped journal and every journal of the fuzz corpora.
struct SearchDifferentialTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized

    static let journals: [String] = {
        let samples = ["counter", "todo", "numpad", "movies"].map { repository.appendingPathComponent("samples/journals/\($0).jsonl").path }
        var fuzzed: [String] = []
        for folder in ["corpus/journal-reader", "corpus/journal-summary", "regressions/journal-reader", "regressions/journal-summary"] {
            let path = repository.appendingPathComponent("Fuzz/\(folder)").path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            fuzzed += names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
        }
        return samples + fuzzed
    }()

    @Test(arguments: journals)
    func theFastSearchFindsWhatFullDecodingFinds(path: String) throws {
        guard let journal = try? InspectedJournal(path: path) else { return }
        guard let last = try? journal.state(at: journal.reader.lastStep) else { return }
        let middle = (try? journal.state(at: (journal.reader.firstStep + journal.reader.lastStep) / 2)) ?? last
        var expressions: [String] = []
        for atom in last.liveAtoms.prefix(6) {
            let name = "'\(atom.displayName.replacingOccurrences(of: "'", with: ""))'"
            expressions.append("\(name) != null")
            for state in [middle, last] {
                if let value = state.values[atom.id]?.v {
                    expressions.append("\(name) == \(value.jsonText)")
                    if case .number = value { expressions.append("\(name) > \(value.jsonText)") }
                }
            }
            expressions.append("\(name).count >= 2")
        }
        for expression in expressions {
            guard let bound = try? FindCommand.bind(expression, in: journal) else { continue }
            for mode in [FindCommand.Mode.becomesTrue, .all] {
                let fast = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode).steps.map(\.step) }
                let full = Result { () throws(InspectorError) in try Self.decodedSteps(journal, bound, holding: mode == .all) }
                // A damaged value of an atom the expression does not name stops full decoding
                // only: compared where full decoding reads the whole journal.
                guard case .success = full else { continue }
                #expect(fast.description == full.description, "\(path): \(expression) (\(mode))")
            }
        }
        for atom in last.liveAtoms.prefix(4) {
            let ids = Set(last.declarations.values.filter { $0.identityKey == atom.identityKey }.map(\.id))
            var position = journal.reader.firstStep
            while position < journal.reader.lastStep {
                let fast = try? JournalSearch.next(.changes(atom.displayName), in: journal, from: position)
                var expected = JournalSearch.Outcome.none
                for seq in (position + 1)...journal.reader.lastStep {
                    guard let record = try? journal.reader.transaction(seq) else { expected = .none; break }
                    if ExpressionScan.touches(record, ids) { expected = .found(seq); break }
                }
                guard case .found(let next)? = fast else { break }
                #expect(fast == expected, "\(path): changes of \(atom.displayName) after \(position)")
                position = next
            }
        }
    }

    /// The steps where the expression becomes true (or holds), every value decoded.
    static func decodedSteps(_ journal: InspectedJournal, _ bound: BoundExpression, holding: Bool) throws(InspectorError) -> [Int] {
        var expression = bound
        let reader = journal.reader
        var state = try journal.state(at: reader.firstStep)
        expression.learn(state.declarations.values)
        var steps: [Int] = []
        var holds = expression.holds(in: state.values)
        if holds { steps.append(state.step) }
        guard reader.lastStep > reader.firstStep else { return steps }
        for seq in (reader.firstStep + 1)...reader.lastStep {
            do {
                let record = try reader.apply(seq, to: &state, decodingValuesOf: nil)
                expression.learn(record.declare ?? [])
            } catch {
                throw InspectorError(error)
            }
            let before = holds
            holds = expression.holds(in: state.values)
            if holds && (holding || !before) { steps.append(seq) }
        }
        return steps
    }
}

extension Result {
    /// Runs `body`, keeping what it returns or throws.
    fileprivate init(_ body: () throws(Failure) -> Success) {
        do {
            self = .success(try body())
        } catch {
            self = .failure(error)
        }
    }

    fileprivate var description: String {
        switch self {
        case .success(let value): "\(value)"
        case .failure(let error): "error: \(error)"
        }
    }
}
