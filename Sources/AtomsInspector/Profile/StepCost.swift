import AtomsJournalReader

/// `step`'s `cost` command: what the transaction that led to a step cost, from its timing
/// line: its phases, its evaluations nested as they ran (with their self time, and whether
/// they were wasted), its effect and subscriber runs, the subscribers its changes told and
/// the asynchronous tasks that ended with it. Times are microseconds.
enum StepCost {
    /// The text for step `step`, or a sentence saying why there is none (the first step, a
    /// journal recorded without timing, a transaction whose timing line is not written yet).
    ///
    /// - Parameter declarations: The atoms declared at `step`, for their names.
    /// - Throws: ``InspectorError`` for a line that cannot be read.
    static func text(_ journal: InspectedJournal, at step: Int, declarations: [Int: AtomDeclaration], style: Style) throws(InspectorError) -> String {
        let reader = journal.reader
        guard reader.recordsTimings else {
            return "no cost: \(journal.path) was recorded without timing (format \(reader.timingFormatText)) — record the session again with timing on (the default: leave JournalRecorder.recordsTiming on, run the samples without --no-timing) to see what each transaction cost"
        }
        guard step > reader.firstStep else {
            return "no cost at step \(step): no transaction led here — move forward (next) to see what a transaction cost"
        }
        let record = try journal.transaction(step, decodingValuesOf: [])
        let timing: TimingLine?
        do {
            timing = try reader.timing(of: step)
        } catch {
            throw InspectorError(error)
        }
        guard let timing else {
            return "no cost at step \(step): its timing line is not in the journal — a recorder writes it with the next transaction, a flush or the end line (type reload), unless the recording stopped first"
        }
        let unchanged = Set((record.values ?? []).filter { $0.unchanged == true }.map(\.id))
        let transaction = TimedSteps.Transaction(step: step, cause: record.cause, at: record.at, origin: record.origin ?? 0, unchanged: unchanged, timing: timing)
        return render(transaction, names: Naming(declarations: declarations), style: style)
    }

    /// The text of one timed transaction.
    static func render(_ transaction: TimedSteps.Transaction, names: Naming, style: Style) -> String {
        let timing = transaction.timing
        // The cause and write site are in the position line `step` prints before.
        var lines = [
            "\(style.bold("step \(transaction.step) took \(micros(transaction.duration))")): runtime \(micros(timing.runtime)), observers \(micros(timing.observers)), effects \(micros(timing.effects)), subscribers \(micros(timing.subscribers))",
        ]
        let tree = EvaluationTree(timing.evaluations)
        let wasted = timing.evaluations.filter { transaction.unchanged.contains($0.atom) }.count
        lines.append("")
        if timing.evaluations.isEmpty {
            lines.append("no evaluations")
        } else {
            lines.append("evaluations: \(timing.evaluations.count)" + (wasted > 0 ? " (\(wasted) wasted: the value was equal to the one before)" : ""))
            var table = [["start", "took", "self", "atom"]]
            for (index, evaluation) in timing.evaluations.enumerated() {
                let name = String(repeating: "  ", count: evaluation.depth) + names.name(evaluation.atom)
                let mark = transaction.unchanged.contains(evaluation.atom) ? "  " + style.yellow("wasted") : ""
                table.append([micros(evaluation.start), micros(evaluation.duration), micros(tree.selfTime(of: index)), name + mark])
            }
            lines += ProfileTable.aligned(table).map { "  " + $0 }
        }
        if !timing.effectRuns.isEmpty {
            lines.append("effect runs")
            lines += ProfileTable.aligned([["start", "took", "atom"]] + timing.effectRuns.map { [micros($0.start), micros($0.duration), names.name($0.atom)] }).map { "  " + $0 }
        }
        if !timing.subscriberRuns.isEmpty {
            lines.append("subscriber runs")
            lines += ProfileTable.aligned([["start", "took", "subscriber"]] + timing.subscriberRuns.map { [micros($0.start), micros($0.duration), $0.at] }).map { "  " + $0 }
        }
        if !timing.notified.isEmpty {
            lines.append("subscribers told: " + timing.notified.map { "\(names.name($0.atom)) \($0.count)" }.joined(separator: ", "))
        }
        if !timing.tasks.isEmpty {
            lines.append("async tasks ended: " + timing.tasks.map { task in
                "\(names.name(task.atom)) \(task.committed ? "result" : "dropped") after \(micros(task.end &- task.start))"
            }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// Nanoseconds as microseconds with one decimal (`12.3µs`).
    static func micros(_ nanoseconds: Int) -> String {
        let tenths = (nanoseconds + (nanoseconds < 0 ? -50 : 50)) / 100
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)µs"
    }
}
