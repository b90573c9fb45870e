import AtomsJournalReader
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// The search over a journal longer than one read of the walk's buffer (256 KB) and than one
/// run of steps between progress reports (16,384): runs of steps skipped in one loop over the
/// buffer (``TransactionWalk/skip(through:_:wrote:)``) stop at the buffer's end, at a report and
/// before the journal's last step, and a step that ends a run is decided as any other.
struct LongJournalSearchTests {
    static let increments = 20_000

    @Test
    func everyStepOfALongTimedJournalIsDecidedAsFullDecodingDecidesIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("counter.jsonl")
        let recorded = try await BuiltProducts.run("sample-counter", ["--journal", path], stdin: String(repeating: "inc\n", count: Self.increments))
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let journal = try InspectedJournal(path: path)
        // Several reads of the walk's buffer.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int > 1 << 20)

        // Values around the first progress report (step 16,384) and the journal's end: the
        // step that writes each ends a run of skipped steps, or is the last step. Whether
        // `IsEvenAtom` becomes true is decided at every step, wherever a run or a read of the
        // buffer ends.
        let counts = [16_380, 16_381, 16_382, Self.increments - 1, Self.increments]
        let expressions = counts.map { "CounterAtom == \($0)" } + ["IsEvenAtom == true", "CounterAtom > \(Self.increments - 2)"]
        let bound = try expressions.map { expression throws(InspectorError) in try FindCommand.bind(expression, in: journal) }
        let expected = try Self.decodedSteps(journal, bound)
        for (index, expression) in expressions.enumerated() {
            let found = try FindCommand.find(journal, where: expression).steps.map(\.step)
            #expect(found == expected[index].becoming, "\(expression)")
            let first = try FindCommand.find(journal, where: expression, mode: .first).steps.map(\.step)
            #expect(first == Array(expected[index].becoming.prefix(1)), "\(expression) (first)")
            if index >= counts.count - 2 {
                let all = try FindCommand.find(journal, where: expression, mode: .all).steps.map(\.step)
                #expect(all == expected[index].holding, "\(expression) (all)")
            }
        }
        // Each counter value is written once: every one of them was found, at its own step.
        #expect(expected.prefix(counts.count).allSatisfy { $0.becoming.count == 1 })
    }

    /// For each expression, the steps where it becomes true and where it holds, every value of
    /// every step decoded by the reader in one walk.
    static func decodedSteps(_ journal: InspectedJournal, _ expressions: [BoundExpression]) throws -> [(becoming: [Int], holding: [Int])] {
        let reader = journal.reader
        var state = try journal.state(at: reader.firstStep)
        var expressions = expressions
        for index in expressions.indices { _ = expressions[index].learn(state.declarations.values) }
        var holds = expressions.map { $0.holds(in: state.values) }
        var steps = holds.map { $0 ? (becoming: [state.step], holding: [state.step]) : (becoming: [Int](), holding: [Int]()) }
        for seq in (reader.firstStep + 1)...reader.lastStep {
            let record = try reader.apply(seq, to: &state, decodingValuesOf: nil)
            for index in expressions.indices {
                if let declared = record.declare { _ = expressions[index].learn(declared) }
                let now = expressions[index].holds(in: state.values)
                if now { steps[index].holding.append(seq) }
                if now, !holds[index] { steps[index].becoming.append(seq) }
                holds[index] = now
            }
        }
        return steps
    }
}
