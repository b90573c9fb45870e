import Atoms
import AtomsInspector
import AtomsJournal
import Foundation

/// One shrink of a recorded session: replays parts of its driven transactions in fresh
/// contexts until the fewest (then the smallest values) under which the condition becomes
/// true are found, then records them once more as the shrunk journal.
@MainActor
final class ShrinkSession {
    /// How a trial ended.
    enum Outcome: Equatable {
        /// The condition held after the transaction at this position of the part (`nil`:
        /// before any).
        case reached(Int?)
        /// It never held.
        case never
        /// The budget ran out before the trial.
        case outOfBudget
    }

    private let journal: InspectedJournal
    private let session: DrivenSession
    private let condition: ShrinkCondition
    private let makeContext: @MainActor () -> AtomTestContext
    private let budget: ShrinkBudget
    /// Where the shrink was called from: its watches, and writes without a recorded site.
    private let location: SourceLocation
    private let started = ContinuousClock.now
    private(set) var trials = 0
    /// Trials already run on a part, with no values replaced.
    private var outcomes: [[Int]: Outcome] = [:]

    init(
        journal: InspectedJournal, session: DrivenSession, condition: ShrinkCondition, makeContext: @escaping @MainActor () -> AtomTestContext,
        budget: ShrinkBudget, location: SourceLocation
    ) {
        self.journal = journal
        self.session = session
        self.condition = condition
        self.makeContext = makeContext
        self.budget = budget
        self.location = location
    }

    private var seconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Shrinks the session and writes the shrunk journal to `output` (`nil`: not written).
    ///
    /// - Throws: ``JournalReplayFailure`` when the whole session never reaches the condition.
    func run(writingTo output: String?) throws(JournalReplayFailure) -> JournalShrink {
        try checkFirstValues()
        let all = Array(session.transactions.indices)
        let whole = trial(all)
        let candidates: [Int]
        switch whole {
        case .reached(let position?): candidates = Array(all[...position])
        case .reached(nil): candidates = []
        case .outOfBudget:
            throw JournalReplayFailure(journal: journal.path, detail: "the budget (\(budget.trials) trials, \(budget.seconds) s) allows no trial of the whole session — give the shrink a budget of at least one trial")
        case .never:
            throw JournalReplayFailure(
                journal: journal.path,
                detail: "the session never reaches the condition \(ShrinkCondition.quoted(condition.text)) when replayed (\(all.count) driven transactions): nothing to shrink — check where it holds in the recording with `atoms-inspect find \(journal.path) --where \(ShrinkCondition.quoted(condition.text)) --first`, and drive the atoms that lead there",
                neverReached: true
            )
        }
        let minimized = DeltaDebugging.minimize(candidates) { part in
            switch trial(part) {
            case .reached: true
            case .never: false
            case .outOfBudget: nil
            }
        }
        var replaced: [WriteKey: ValueEntry] = [:]
        var decoded: [WriteKey: DecodedWrite] = [:]
        var isComplete = minimized.isComplete
        var kept = minimized.kept
        if isComplete {
            isComplete = shrinkValues(of: kept, replaced: &replaced, decoded: &decoded)
            // Smaller values can reach the condition sooner, or need fewer transactions: cut
            // the kept ones to where it holds, then take out each that is no longer needed.
            if isComplete {
                isComplete = trim(&kept, decoded: decoded)
            }
        }
        var shrunkJournal: String?
        var shrunkJournalError: String?
        if let output {
            do {
                try record(kept, decoded: decoded, to: output)
                shrunkJournal = output
            } catch {
                shrunkJournalError = "\(error)"
            }
        }
        let steps = kept.map { index in
            let transaction = session.transactions[index]
            return JournalShrink.Step(
                step: transaction.step, cause: transaction.cause, writeSite: transaction.writeSite,
                writes: transaction.writes.indices.map { position in
                    let write = transaction.writes[position]
                    let key = WriteKey(transaction: index, write: position)
                    return JournalShrink.Write(atom: write.atom, value: Self.describe(replaced[key] ?? write.entry), isShrunk: replaced[key] != nil)
                }
            )
        }
        return JournalShrink(
            journal: journal.path, condition: condition.text, recordedTransactions: session.transactions.count, kept: steps, trials: trials,
            seconds: seconds, isComplete: isComplete, shrunkJournal: shrunkJournal, shrunkJournalError: shrunkJournalError
        )
    }

    /// Cuts the kept transactions to the first where the condition holds with the shrunk
    /// values, then takes out each one the condition no longer needs (1-minimal again).
    ///
    /// - Returns: Whether it ran to the end within the budget.
    private func trim(_ kept: inout [Int], decoded: [WriteKey: DecodedWrite]) -> Bool {
        if case .reached(let position) = trial(kept, replacing: decoded) {
            kept = position.map { Array(kept[...$0]) } ?? []
        }
        var index = 0
        while index < kept.count {
            var without = kept
            without.remove(at: index)
            switch trial(without, replacing: decoded) {
            case .reached: kept = without
            case .never: index += 1
            case .outOfBudget: return false
            }
        }
        return true
    }

    /// Fails, naming the atom, when a delivered atom's first recorded value does not make
    /// today's value (each trial starts it from there).
    private func checkFirstValues() throws(JournalReplayFailure) {
        let context = TestContextObservation.$isPaused.withValue(true) { makeContext() }
        for member in session.members where member.isDelivered {
            do {
                try member.prepare?(context, session.firstValues[ReplayedAtomKey(member.identity)])
            } catch {
                throw JournalReplayFailure(journal: journal.path, atom: member.identity.description, detail: "\(error) — drive it only where the journal records its values, or record the session again")
            }
        }
    }

    /// A write of a kept transaction: its transaction's index and its place in it.
    struct WriteKey: Hashable {
        let transaction: Int
        let write: Int
    }

    /// Shrinks each kept write's value in turn while the condition still holds and the value
    /// still decodes; returns whether it ran to the end within the budget.
    private func shrinkValues(of kept: [Int], replaced: inout [WriteKey: ValueEntry], decoded: inout [WriteKey: DecodedWrite]) -> Bool {
        for index in kept {
            for (position, write) in session.transactions[index].writes.enumerated() {
                guard let entry = write.entry, let json = entry.v, let decode = write.member.decode else { continue }
                let key = WriteKey(transaction: index, write: position)
                let current = decoded
                let result = JSONShrinking.shrink(json) { candidate in
                    var changed = entry
                    changed.v = candidate
                    guard let made = try? decode(changed) else { return false }
                    var trialWrites = current
                    trialWrites[key] = made
                    switch trial(kept, replacing: trialWrites) {
                    case .reached: return true
                    case .never: return false
                    case .outOfBudget: return nil
                    }
                }
                if result.value != json {
                    var changed = entry
                    changed.v = result.value
                    if let made = try? decode(changed) {
                        replaced[key] = changed
                        decoded[key] = made
                    }
                }
                if !result.isComplete { return false }
            }
        }
        return true
    }

    /// Replays a part of the session (the transactions at `indices`, in order) in a fresh
    /// context, writes replaced by `replacing`, and says after which one the condition held.
    func trial(_ indices: [Int], replacing: [WriteKey: DecodedWrite] = [:]) -> Outcome {
        if replacing.isEmpty, let known = outcomes[indices] {
            return known
        }
        guard trials < budget.trials, seconds < budget.seconds else {
            return .outOfBudget
        }
        trials += 1
        let outcome = replay(indices, replacing: replacing, recordingTo: nil).outcome
        if replacing.isEmpty { outcomes[indices] = outcome }
        return outcome
    }

    /// Replays a part of the session in a fresh context (recorded by `recorder` when given,
    /// which is closed as the condition first holds, before the context goes away).
    private func replay(_ indices: [Int], replacing: [WriteKey: DecodedWrite], recordingTo recorder: JournalRecorder?) -> (outcome: Outcome, closeError: (any Error)?) {
        // Each trial's context is the shrink's own: a journal recording the test's contexts
        // does not record them.
        let context = TestContextObservation.$isPaused.withValue(true) { makeContext() }
        recorder?.attach(to: context.atomStore)
        // The recording ends where the condition holds, before the context's releases.
        func end(_ outcome: Outcome) -> (outcome: Outcome, closeError: (any Error)?) {
            var closeError: (any Error)?
            do {
                try recorder?.close()
            } catch {
                closeError = error
            }
            withExtendedLifetime(context) {}
            return (outcome, closeError)
        }
        for member in session.members where member.isDelivered {
            // The first values decoded when the session was read.
            try? member.prepare?(context, session.firstValues[ReplayedAtomKey(member.identity)])
        }
        for member in session.members {
            member.watch(context, location)
        }
        if condition.holds(in: context) {
            return end(.reached(nil))
        }
        for (position, index) in indices.enumerated() {
            let transaction = session.transactions[index]
            for (place, write) in transaction.writes.enumerated() {
                let made = replacing[WriteKey(transaction: index, write: place)] ?? write.decoded
                made.apply(context, transaction.site ?? location, write.cause)
            }
            if condition.holds(in: context) {
                return end(.reached(position))
            }
        }
        return end(.never)
    }

    /// Records the kept transactions (with their shrunk values) once more into `path`.
    private func record(_ kept: [Int], decoded: [WriteKey: DecodedWrite], to path: String) throws {
        let recorder = try JournalRecorder(path: path, program: "shrink of \(journal.path) until \(condition.text)")
        let (outcome, closeError) = replay(kept, replacing: decoded, recordingTo: recorder)
        if let closeError { throw closeError }
        guard case .reached = outcome else {
            throw JournalReplayFailure(journal: journal.path, detail: "the shrunk session did not reach the condition when recorded again — its atoms depend on more than the replay drives (time, randomness); the report above still holds")
        }
    }

    /// A kept write's value as the report shows it.
    static func describe(_ entry: ValueEntry?) -> String {
        guard let entry else { return "reset" }
        switch entry.phase {
        case "success"?: return "success(\(entry.v?.jsonText ?? entry.dump ?? ""))"
        case "failure"?: return "failure(\(entry.error ?? entry.dump ?? ""))"
        case let phase?: return phase
        case nil: return entry.v?.jsonText ?? entry.dump ?? ""
        }
    }
}
