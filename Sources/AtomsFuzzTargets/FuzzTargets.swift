import AtomsInspector
import AtomsJournal
import Foundation

/// What each fuzz target does with one input. The fuzzers (`Fuzz/run.sh`) call these for
/// every input libFuzzer makes; the tests replay the seed corpora and every crash ever found
/// through the same functions. An input may make them throw, never trap.
package enum FuzzTargets {
    /// The targets by name, as `Fuzz/run.sh` and the corpus folders name them.
    package static let all: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
        "journal-reader": journalReader,
        "journal-summary": journalSummary,
        "rules": rules,
        "step-commands": stepCommands,
        "control-protocol": controlProtocol,
        "dap": debugAdapter,
    ]

    /// Opens the input as a journal, then reads the transactions and states at its first,
    /// middle and last steps, and what the inspector derives from the last state (the graph,
    /// names, a rules check).
    package static func journalReader(_ input: UnsafeRawBufferPointer) {
        let path = FuzzScratch.path("journal.jsonl")
        guard FuzzScratch.write(input, to: path), let reader = try? JournalReader(path: path) else {
            return
        }
        let first = reader.firstStep
        let last = reader.lastStep
        for step in [first, first + (last - first) / 2, last] {
            if step > first {
                _ = try? reader.transaction(step)
                _ = try? reader.transaction(step, decodingValuesOf: [])
            }
            _ = try? reader.state(at: step, decodingValuesOf: [])
            guard let state = try? reader.state(at: step) else {
                continue
            }
            _ = state.graphDescription(distinguishingFamilies: true)
            _ = state.distinctNames()
            _ = state.atoms(matching: "*Atom*")
            let checker = RuleChecker(state: state)
            for rule in FuzzFixtures.everyRule {
                _ = checker.check(rule)
            }
        }
    }

    /// Opens the input as a journal and reads every transaction's envelope three ways: the
    /// summary `stats` prints, the same in two halves on two threads, and one by one as `log`
    /// reads them; and searches it with `find` in two halves and in one pass
    /// (``FindHalvesCrossCheck``). Where they disagree, the input goes to ``FuzzFindings``
    /// (the readers are to give one verdict; until they do, a disagreement is not a crash).
    package static func journalSummary(_ input: UnsafeRawBufferPointer) {
        let path = FuzzScratch.path("summary.jsonl")
        guard FuzzScratch.write(input, to: path), let reader = try? JournalReader(path: path) else {
            return
        }
        for disagreement in SummaryCrossCheck.disagreements(in: reader) + FindHalvesCrossCheck.disagreements(at: path) {
            FuzzFindings.report(target: "journal-summary", kind: disagreement.kind, detail: disagreement.detail, input: input)
        }
    }

    /// Parses the input as a rules file and checks its rules against a small recorded state.
    package static func rules(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        guard let state = FuzzFixtures.state, let rules = try? RulesParser.parse(text, file: "fuzz.rules") else {
            return
        }
        let checker = RuleChecker(state: state)
        for rule in rules {
            _ = checker.check(rule)
        }
    }

    /// Feeds the input, line by line, to a new `step` session over a small recorded journal
    /// (opened once, and decoded once, for all the inputs of a process).
    package static func stepCommands(_ input: UnsafeRawBufferPointer) {
        guard let journal = FuzzFixtures.sessionJournal, let session = try? StepSession(journal: journal) else {
            return
        }
        let text = String(decoding: input, as: UTF8.self)
        // The first 64 lines; the rest of a long input is not split at all.
        for line in text.split(maxSplits: 64, omittingEmptySubsequences: false, whereSeparator: \.isNewline).prefix(64) {
            _ = session.handle(String(line))
        }
    }
}

extension FuzzTargets {
    /// Splits the input into lines as the control thread does and parses each as a request
    /// (a line over the limit must be refused as too long, never parsed); reads each as a
    /// journal line `attach` sniffs for its step. A parsed request must name itself.
    package static func controlProtocol(_ input: UnsafeRawBufferPointer) {
        for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
            switch ControlProtocol.parse(line) {
            case .success(let request):
                precondition(line.count <= ControlProtocol.maximumRequestLength && !request.name.isEmpty)
            case .failure(let refusal):
                precondition(!refusal.message.isEmpty && !ControlProtocol.error(refusal).dropLast().contains(0x0A))
            }
            _ = ControlMessages.transactionStep(of: line)
        }
    }
}
